import "server-only";

import type { DataOrigin } from "@/lib/model";

import { BffError } from "../http/errors";
import type { OperationContext } from "../http/operation";
import type { MirrorAccess } from "../platform/mirror-access";

/**
 * Whether the customer's mirror answers a request: it does when a head sync has run and its coverage reaches back to
 * the range's start (an open start needs the whole history: the backfill complete). Otherwise the upstream answers
 * as before, and the reply's origin says why in a sentence.
 */
type Serving =
  | { mirror: MirrorAccess; origin: DataOrigin }
  /** `reason`: why the local copy does not answer, the end of a sentence ("is still loading"). */
  | { mirror: null; origin: DataOrigin; reason: string; loading: boolean };

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

/**
 * The mirror when it covers a range starting at `fromMs` (asking it for a fresh head sync either way: a page is
 * looking), else null with the upstream origin and the reason.
 */
export async function mirrorCovering(ctx: OperationContext, fromMs: number | undefined): Promise<Serving> {
  const access = await ctx.mirror();
  if (access === null)
    return {
      mirror: null,
      origin: { source: "upstream", asOf: null, note: null },
      reason: UNAVAILABLE,
      loading: false,
    };
  access.requestFresh();
  const gap = gapOf(access, fromMs);
  if (gap === null && access.state.lastHeadSyncMs !== null)
    return {
      mirror: access,
      origin: { source: "mirror", asOf: new Date(access.state.lastHeadSyncMs).toISOString(), note: null },
    };
  const reason = gap ?? "is still loading";
  return {
    mirror: null,
    origin: {
      source: "upstream",
      asOf: null,
      note: `The local copy of your transactions ${reason}, so these come from the Fleet Fuel API.`,
    },
    reason,
    loading: true,
  };
}

/**
 * The 409 for filters only the mirror answers, asked when it does not cover the range: names what was asked and
 * why the local copy cannot answer ("Filtering by driver needs the local copy of your transactions, which is still
 * loading …"), and what the person can do.
 */
export function mirrorNeeded(serving: Serving, asked: readonly string[]): BffError {
  const what = asked.length === 1 ? (asked[0] ?? "") : `${asked.slice(0, -1).join(", ")} and ${asked.at(-1) ?? ""}`;
  const reason = serving.mirror === null ? serving.reason : "is still loading";
  const loading = serving.mirror === null && serving.loading;
  const them = asked.length === 1 ? "that filter" : "those filters";
  const next = loading
    ? `Try again once it has loaded, or remove ${them}.`
    : `Remove ${them} to see the Fleet Fuel API's rows.`;
  return new BffError(
    "mirror_needed",
    `${what.charAt(0).toUpperCase()}${what.slice(1)} ${asked.length === 1 ? "needs" : "need"} the local copy of your transactions, which ${reason}. ${next}`,
  );
}
