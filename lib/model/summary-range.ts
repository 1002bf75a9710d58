/**
 * The summary's range rule, zod-free: one entry per day in its daily series, so the range bounds the reply. Both
 * ends are inclusive UTC days (YYYY-MM-DD).
 */

/** The longest summary range, in days (both ends counted): a year, a leap year included. */
export const MAX_SUMMARY_DAYS = 366;

const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both counted (0 or less when `from` is after `to`). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
}

/** Why the range cannot be summarized (a sentence naming the parameters), or null when it can. */
export function summaryRangeProblem(from: string, to: string): string | null {
  if (daysInRange(from, to) <= MAX_SUMMARY_DAYS) return null;
  return `The range from ${from} to ${to} is longer than ${String(MAX_SUMMARY_DAYS)} days; ask for a shorter one (from, to)`;
}
