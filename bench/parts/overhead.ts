import type { BenchContext } from "../lib/context";

export function runOverheadPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
