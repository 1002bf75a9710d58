import type { BenchContext } from "../lib/context";

export function runHeadersPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
