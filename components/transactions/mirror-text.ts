import { describeRecentAge } from "@/lib/format/ages";
import { formatLongDay } from "@/lib/format/dates";
import type { DataOrigin, SyncStatusReply } from "@/lib/model/mirror-replies";

/**
 * What the transactions page says about the local copy (the mirror): whether the filters only it answers are
 * offered, where the rows on screen came from, and whether they are all of the range. Pure, for unit tests.
 */

/** The filters in words, for the line that says why they are not offered. */
const FILTERS_IN_WORDS = "Filters by driver, card, truck, station, state, product, amount and gallons";

/**
 * The local copy answers once it has a head sync: complete history (ready) or a known part of it (backfilling, or a
 * failed last run over rows already held; if the BFF then refuses a filter, its 409 says why where the filters are).
 */
export function mirrorCanAnswer(status: SyncStatusReply | undefined): boolean {
  if (status === undefined) return false;
  const holdsRows = status.coverage.from !== null && status.lastHeadSync !== null;
  return status.state === "ready" || ((status.state === "backfilling" || status.state === "error") && holdsRows);
}

/**
 * Why those filters are not offered, in one line; null when they are. `failed`: the status could not be read (the
 * BFF answered with an error, or nothing), `pending`: not known yet.
 */
export function mirrorUnavailableText(
  status: SyncStatusReply | undefined,
  query: { pending: boolean; failed: boolean },
): string | null {
  if (mirrorCanAnswer(status)) return null;
  if (status === undefined) {
    if (query.pending) return "Checking whether your local copy of transactions can answer more filters…";
    return `${FILTERS_IN_WORDS} need the local copy of your transactions, whose state could not be read just now.`;
  }
  switch (status.state) {
    case "off":
      // With a reason (a key that may not read transactions), the BFF's sentence; without, the operator turned it off.
      return status.error === null
        ? `${FILTERS_IN_WORDS} need a local copy of your transactions, which this dashboard does not keep.`
        : `${FILTERS_IN_WORDS} are not offered: ${status.error}`;
    case "error":
      return `${FILTERS_IN_WORDS} are not offered: ${status.error ?? "the local copy of your transactions could not be made."}`;
    default:
      return `${FILTERS_IN_WORDS} are offered once the local copy of your transactions has its first rows: it is being made now.`;
  }
}

/**
 * While the history loads, the local copy answers those filters only for ranges that start where it reaches (the BFF
 * refuses the rest with a 409): said under them, so a person picks a range that works. Null once it is complete.
 */
export function mirrorReachText(status: SyncStatusReply | undefined): string | null {
  if (status === undefined || status.backfill.complete || status.coverage.from === null) return null;
  return `While the rest of the history loads, these filters answer for date ranges from ${formatLongDay(status.coverage.from.slice(0, 10))} (UTC) on.`;
}

/** "From your local copy · as of 12 s ago", "Live from the provider" (+ the BFF's note on why). */
export function originText(origin: DataOrigin, now: number): string {
  if (origin.source === "mirror") {
    return now === 0 ? "From your local copy" : `From your local copy · as of ${describeRecentAge(origin.asOf, now)}`;
  }
  return origin.note === null ? "Live from the provider" : `Live from the provider · ${origin.note}`;
}

/**
 * When the rows come from the local copy but the range starts before what it holds (history still loading), the
 * page shows part of the range: said in a sentence. `rangeFrom`: the first instant asked for, null for all time.
 */
export function partialText(
  origin: DataOrigin | undefined,
  rangeFrom: string | null,
  status: SyncStatusReply | undefined,
): string | null {
  if (origin?.source !== "mirror" || status === undefined || status.backfill.complete) return null;
  const held = status.coverage.from;
  if (held === null) return null;
  if (rangeFrom !== null && Date.parse(rangeFrom) >= Date.parse(held)) return null;
  return `Partial: your local copy holds transactions from ${formatLongDay(held.slice(0, 10))} (UTC) on; older ones are still loading, so the earlier days of this range are missing for now.`;
}
