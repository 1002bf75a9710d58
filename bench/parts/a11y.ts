import type { BenchContext } from "../lib/context";

export function runA11yPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
