import "server-only";

import { DAY_MS, OFFSET_MARGIN_MS, utcDay } from "@/lib/mirror";
import { type InsightCoverage, type LocalDateRange } from "@/lib/model";

import type { OperationContext } from "../http/operation";
import type { MirrorAccess } from "../platform/mirror-access";
import { chooseSource } from "../transactions";

/**
 * Which days of an insight's range the customer's mirror answers exactly (issue 16). Insights come only from the
 * mirror: without one the route says why (409 `mirror_needed`); with one it asks for a fresh head sync and answers
 * the days it holds whole — every purchase of those local dates — and `coverage` says what is left out, so no page
 * shows a silent partial number.
 */

/**
 * The first local date all of whose purchases are at or after `coverageFromMs` (a local date's purchases lie within
 * OFFSET_MARGIN_MS of its UTC midnight).
 */
function firstWholeDay(coverageFromMs: number): string {
  return utcDay(Math.ceil((coverageFromMs + OFFSET_MARGIN_MS) / DAY_MS) * DAY_MS);
}

/** The coverage of `range` given the mirror's state (pure; exported for tests). */
export function coverageOf(state: MirrorAccess["state"], range: LocalDateRange): InsightCoverage {
  const asOf = state.lastHeadSyncMs === null ? null : new Date(state.lastHeadSyncMs).toISOString();
  if (state.lastHeadSyncMs === null)
    return {
      requested: range,
      covered: null,
      complete: false,
      asOf,
      note: "The local copy of your transactions is still loading: these figures appear once its first days are in.",
    };
  const reach = state.backfill.complete || state.coverageFromMs === null ? null : firstWholeDay(state.coverageFromMs);
  if (reach === null || reach <= range.from)
    return { requested: range, covered: range, complete: true, asOf, note: null };
  if (reach > range.to)
    return {
      requested: range,
      covered: null,
      complete: false,
      asOf,
      note: `The local copy of your transactions reaches back to ${reach} so far (older history is still loading), so nothing of ${range.from} to ${range.to} can be counted yet.`,
    };
  return {
    requested: range,
    covered: { from: reach, to: range.to },
    complete: false,
    asOf,
    note: `The local copy of your transactions reaches back to ${reach} so far (older history is still loading): these figures cover ${reach} to ${range.to}, not the days from ${range.from}.`,
  };
}

/**
 * The mirror and the part of `range` it covers exactly (`query`: null when none yet — query nothing then). The 409
 * `mirror_needed` when the session has no mirror comes from the one choice of source (transactions' chooseSource).
 */
export async function insightMirror(
  ctx: OperationContext,
  range: LocalDateRange,
): Promise<{ mirror: MirrorAccess; coverage: InsightCoverage; query: LocalDateRange | null }> {
  const { access: mirror } = await chooseSource(ctx, { needs: "mirror" });
  const coverage = coverageOf(mirror.state, range);
  return { mirror, coverage, query: coverage.covered };
}
