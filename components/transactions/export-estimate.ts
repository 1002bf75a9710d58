import type { ExportRate } from "@/lib/model";

/**
 * The export's "time left", from what bounds it: the request budget. Every page of the walk is one upstream request
 * of `rowsPerRequest` rows, and the key may send `requestsPerWindow` in any `windowSeconds`. So the rows left need
 * ⌈rows left / rowsPerRequest⌉ requests; those that fit in what the window has left go at once (network time
 * only), the rest wait for whole windows. The rate so far says nothing of this: the first window's burst is fast,
 * which made the old estimate about 10× too low (14 s for a 130 s export).
 *
 * While no row arrives (the walk waits for the budget) the estimate counts down from the last one, never up.
 */

/** Network time of one page request when the budget does not hold it back (a page of 200 rows). */
const SECONDS_PER_REQUEST = 0.3;
/** Shown instead of 0 while rows are still coming. */
const MIN_SECONDS = 1;

export function estimateExportSeconds(rowsDone: number, total: number | null, rate: ExportRate | null): number | null {
  if (total === null || rate === null || rowsDone >= total) return null;
  const { rowsPerRequest, requestsPerWindow, windowSeconds, sentInWindow, pausedForSeconds } = rate;
  if (rowsPerRequest <= 0 || requestsPerWindow <= 0 || windowSeconds <= 0) return null;
  const requestsLeft = Math.ceil((total - rowsDone) / rowsPerRequest);
  const availableNow = Math.max(0, requestsPerWindow - sentInWindow);
  const network = requestsLeft * SECONDS_PER_REQUEST;
  if (requestsLeft <= availableNow) return Math.max(MIN_SECONDS, Math.ceil(pausedForSeconds + network));
  // The window is full (or fills): each further `requestsPerWindow` requests take one more window.
  const windowsToWait = Math.ceil((requestsLeft - availableNow) / requestsPerWindow);
  return Math.max(MIN_SECONDS, Math.ceil(pausedForSeconds + windowsToWait * windowSeconds));
}

/** The last estimate and when it was made, so it can count down between progress reports. */
export interface ExportEstimate {
  seconds: number;
  rowsDone: number;
  atMs: number;
}

/**
 * A new report: a fresh estimate when rows moved (or there was none), otherwise the previous one kept as it was, so
 * a stalled export counts down instead of up.
 */
export function updateEstimate(
  previous: ExportEstimate | null,
  rowsDone: number,
  total: number | null,
  rate: ExportRate | null,
  nowMs: number,
): ExportEstimate | null {
  if (previous !== null && rowsDone === previous.rowsDone) return previous;
  const seconds = estimateExportSeconds(rowsDone, total, rate);
  return seconds === null ? null : { seconds, rowsDone, atMs: nowMs };
}

/** Seconds left at `nowMs`: the estimate less the time since it was made, at least 1 while the export runs. */
export function secondsLeftAt(estimate: ExportEstimate | null, nowMs: number): number | null {
  if (estimate === null) return null;
  return Math.max(MIN_SECONDS, Math.ceil(estimate.seconds - (nowMs - estimate.atMs) / 1000));
}
