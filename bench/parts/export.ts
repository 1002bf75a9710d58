import type { BenchContext } from "../lib/context";

export function runExportPart(_ctx: BenchContext): Promise<void> {
  return Promise.resolve();
}
