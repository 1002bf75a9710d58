import "server-only";

import type { DataOrigin } from "@/lib/model";

import { BffError } from "../http/errors";
import type { OperationContext } from "../http/operation";
import type { MirrorAccess } from "../platform/mirror-access";
import { mirrorSource } from "./mirror-source";
import type { MirrorSource, TransactionSource } from "./source";
import { upstreamSource } from "./upstream-source";

/**
 * The one choice between the customer's mirror and the upstream (issue 27). The mirror answers when a head sync has
 * run and its coverage reaches back to the start the request needs (an open start needs the whole history: the
 * backfill complete); otherwise the upstream answers as before, and the reply's origin says why in a sentence. Either
 * way a mirror is asked for a fresh head sync: a page is looking.
 *
 * What differs between the callers is a parameter here, each a rule of its own:
 * - `fromMs`: the list, totals and export need the zone's first instant (`instantRangeOf`), the summary its first UTC
 *   day (after its 30-day default), the facets only now (a head sync is enough to offer a filter).
 * - `mirrorOnly`: the mirror-only parameters asked, in words; without a covering mirror they are a 409 naming them.
 *   The list and the export count a sort among them, the totals do not (a sort does not change a sum).
 * - `needs: "mirror"`: the insights come only from the mirror, whatever it covers so far (they say what they leave
 *   out: insights/serving.ts); without one for this session, a 409 whose sentence says what is missing.
 */
export interface SourceQuery {
  fromMs: number | undefined;
  mirrorOnly?: readonly string[];
}

export function chooseSource(ctx: OperationContext, query: { needs: "mirror" }): Promise<MirrorSource>;
export function chooseSource(ctx: OperationContext, query: SourceQuery): Promise<TransactionSource>;
export async function chooseSource(
  ctx: OperationContext,
  query: SourceQuery | { needs: "mirror" },
): Promise<TransactionSource> {
  const access = await ctx.mirror();
  access?.requestFresh();
  if ("needs" in query) {
    if (access === null) throw new BffError("mirror_needed", INSIGHTS_UNAVAILABLE);
    return mirrorSource(access, mirrorOrigin(access));
  }
  const gap = access === null ? null : gapOf(access, query.fromMs);
  if (access !== null && gap === null && access.state.lastHeadSyncMs !== null)
    return mirrorSource(access, mirrorOrigin(access));
  const reason = access === null ? UNAVAILABLE : (gap ?? "is still loading");
  const asked = query.mirrorOnly ?? [];
  if (asked.length > 0) throw mirrorNeeded(asked, reason, access !== null);
  const note =
    access === null ? null : `The local copy of your transactions ${reason}, so these come from the Fleet Fuel API.`;
  return upstreamSource(ctx, { source: "upstream", asOf: null, note });
}

/** The mirror's origin: as of its last head sync (before the first, only the insights take it, and ignore it). */
function mirrorOrigin(access: MirrorAccess): DataOrigin {
  const { lastHeadSyncMs } = access.state;
  if (lastHeadSyncMs === null)
    return { source: "upstream", asOf: null, note: "The local copy of your transactions is still loading." };
  return { source: "mirror", asOf: new Date(lastHeadSyncMs).toISOString(), note: null };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Why the mirror does not answer for a range starting at `fromMs` (open: undefined), or null when it does. */
function gapOf(access: MirrorAccess, fromMs: number | undefined): string | null {
  const { state } = access;
  if (state.lastHeadSyncMs === null) return "is still loading";
  if (state.backfill.complete) return null;
  if (fromMs !== undefined && state.coverageFromMs !== null && state.coverageFromMs <= fromMs) return null;
  const reach = state.coverageFromMs === null ? "" : ` (it reaches back to ${day(state.coverageFromMs)} so far)`;
  return fromMs === undefined
    ? `is still loading older history${reach}`
    : `does not reach back to ${day(fromMs)} yet${reach}`;
}

const UNAVAILABLE =
  "is not available for this session (it needs a key with the transactions scope that the Fleet Fuel API accepted in the last 5 minutes)";

const INSIGHTS_UNAVAILABLE =
  "This view is computed from the local copy of your transactions, which is not available for this session: it needs a key with the transactions scope that the Fleet Fuel API accepted in the last 5 minutes (and the mirror enabled on this server). Sign in again, or ask for a key with the transactions scope.";

/**
 * The 409 for filters only the mirror answers, asked when it does not cover the range: names what was asked and
 * why the local copy cannot answer ("Filtering by driver needs the local copy of your transactions, which is still
 * loading …"), and what the person can do (wait while it loads, else remove the filters).
 */
function mirrorNeeded(asked: readonly string[], reason: string, loading: boolean): BffError {
  const what = asked.length === 1 ? (asked[0] ?? "") : `${asked.slice(0, -1).join(", ")} and ${asked.at(-1) ?? ""}`;
  const them = asked.length === 1 ? "that filter" : "those filters";
  const next = loading
    ? `Try again once it has loaded, or remove ${them}.`
    : `Remove ${them} to see the Fleet Fuel API's rows.`;
  return new BffError(
    "mirror_needed",
    `${what.charAt(0).toUpperCase()}${what.slice(1)} ${asked.length === 1 ? "needs" : "need"} the local copy of your transactions, which ${reason}. ${next}`,
  );
}
