import "server-only";

import type { DataOrigin, TransactionSummaryReply } from "@/lib/model";
import { daysInRange } from "@/lib/model/summary-range";
import { UTC_ZONE } from "@/lib/model/time-zones";

import { BffError } from "../errors";
import type { MirrorAccess } from "../mirror/access";
import { readOffThread } from "../off-thread/pool";
import { utcDate } from "../summary";

const DAY_MS = 86_400_000;

/**
 * The longest range the mirror summarizes, in days: ten years. The mirror answers any period a fleet has history for;
 * the bound only keeps the daily series (one entry per day) of a mistyped year such as 0202 from growing without end.
 */
const MAX_MIRROR_SUMMARY_DAYS = 3_660;

/**
 * The summary of UTC days [from, to] from the mirror (the upstream walk's rules: lib/mirror/summary), and the totals
 * of the period of equal length just before `from` when the mirror covers it too (else null).
 */
export async function mirrorSummary(
  access: MirrorAccess,
  origin: DataOrigin,
  range: { from: string; to: string },
): Promise<TransactionSummaryReply> {
  const { from, to } = range;
  if (daysInRange(from, to) > MAX_MIRROR_SUMMARY_DAYS)
    throw new BffError(
      "bad_request",
      `The range from ${from} to ${to} is longer than ${String(MAX_MIRROR_SUMMARY_DAYS)} days (ten years); ask for a shorter one (from, to).`,
    );
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to) + DAY_MS;
  const previousFromMs = fromMs - (toMs - fromMs);
  const { state } = access;
  const coversPrevious =
    state.backfill.complete || (state.coverageFromMs !== null && state.coverageFromMs <= previousFromMs);
  const [summary, previousTotals] = await Promise.all([
    readOffThread(access.store, "summary.summarize", [access.customerId, { fromMs, toMs, timeZone: UTC_ZONE }]),
    coversPrevious
      ? readOffThread(access.store, "summary.period-totals", [
          access.customerId,
          { fromMs: previousFromMs, toMs: fromMs },
        ])
      : Promise.resolve(null),
  ]);
  return {
    ...summary,
    from,
    to,
    previous:
      previousTotals === null
        ? null
        : { from: utcDate(previousFromMs), to: utcDate(fromMs - DAY_MS), totals: previousTotals },
    origin,
  };
}
