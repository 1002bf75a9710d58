import type { BenchContext } from "../lib/context";

export function runMapPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
