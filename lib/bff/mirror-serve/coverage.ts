import "server-only";

import type { DataOrigin } from "@/lib/model";

import { BffError } from "../errors";
import type { MirrorAccess } from "../mirror/access";
import type { OperationContext } from "../operation";

/**
 * Whether the customer's mirror answers a request: it does when a head sync has run and its coverage reaches back to
 * the range's start (an open start needs the whole history: the backfill complete). Otherwise the upstream answers
 * as before, and the reply's origin says why in a sentence.
 */
export type Serving = { mirror: MirrorAccess; origin: DataOrigin } | { mirror: null; origin: DataOrigin };

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
 * looking), else null with the upstream origin.
 */
export async function mirrorCovering(ctx: OperationContext, fromMs: number | undefined): Promise<Serving> {
  const access = await ctx.mirror();
  if (access === null) return { mirror: null, origin: { source: "upstream", asOf: null, note: null } };
  access.requestFresh();
  const gap = gapOf(access, fromMs);
  if (gap === null && access.state.lastHeadSyncMs !== null)
    return {
      mirror: access,
      origin: { source: "mirror", asOf: new Date(access.state.lastHeadSyncMs).toISOString(), note: null },
    };
  return {
    mirror: null,
    origin: {
      source: "upstream",
      asOf: null,
      note: `The local copy of your transactions ${gap ?? "is still loading"}, so these come from the Fleet Fuel API.`,
    },
  };
}

/** Why the mirror did not answer, for a 409's sentence. */
async function reasonOf(ctx: OperationContext, fromMs: number | undefined): Promise<string> {
  const access = await ctx.mirror();
  return access === null ? UNAVAILABLE : (gapOf(access, fromMs) ?? "is still loading");
}

/**
 * The 409 for filters only the mirror answers, asked when it does not cover the range: names what was asked and
 * why the local copy cannot answer yet ("Filtering by driver needs the local copy of your transactions, which is
 * still loading …").
 */
export async function mirrorNeeded(
  ctx: OperationContext,
  fromMs: number | undefined,
  asked: readonly string[],
): Promise<BffError> {
  const what = asked.length === 1 ? (asked[0] ?? "") : `${asked.slice(0, -1).join(", ")} and ${asked.at(-1) ?? ""}`;
  const reason = await reasonOf(ctx, fromMs);
  return new BffError(
    "mirror_needed",
    `${what.charAt(0).toUpperCase()}${what.slice(1)} ${asked.length === 1 ? "needs" : "need"} the local copy of your transactions, which ${reason}. Try again once it has loaded, or remove ${asked.length === 1 ? "that filter" : "those filters"}.`,
  );
}
