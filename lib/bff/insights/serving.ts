import "server-only";

import type { InsightCoverage, LocalDateRange } from "@/lib/model/insights";

import { BffError } from "../errors";
import type { MirrorAccess } from "../mirror/access";
import type { OperationContext } from "../operation";

// STUB of the insights contract (replaced by the lead's "Insights contract" commit on merge).

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function insightMirror(
  ctx: OperationContext,
  range: LocalDateRange,
): Promise<{ mirror: MirrorAccess; coverage: InsightCoverage; query: LocalDateRange | null }> {
  const mirror = await ctx.mirror();
  if (mirror === null)
    throw new BffError(
      "mirror_needed",
      "This page needs the local copy of your transactions, which is not available for this session.",
    );
  mirror.requestFresh();
  const { state } = mirror;
  const asOf = state.lastHeadSyncMs === null ? null : new Date(state.lastHeadSyncMs).toISOString();
  let covered: LocalDateRange | null = null;
  if (state.lastHeadSyncMs !== null) {
    const first = state.backfill.complete
      ? range.from
      : state.coverageFromMs === null
        ? null
        : day(state.coverageFromMs + 15 * 3_600_000 + DAY_MS);
    if (first !== null) {
      const from = first > range.from ? first : range.from;
      covered = from <= range.to ? { from, to: range.to } : null;
    }
  }
  const complete = covered !== null && covered.from === range.from && covered.to === range.to;
  return {
    mirror,
    coverage: {
      requested: range,
      covered,
      complete,
      asOf,
      note: complete ? null : "The local copy of your transactions does not cover the whole range yet.",
    },
    query: covered,
  };
}
