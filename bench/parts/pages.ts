import type { BenchContext } from "../lib/context";

export function runPagesPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
