import type { BenchContext } from "../lib/context";

export function runEconomyPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
