import { describeAge } from "./dates";
import { onFirstUse } from "./on-first-use";

/**
 * Ages and times left of the local copy's sync, for the shell's status line and the list's origin line. Seconds
 * matter here ("as of 12 s ago" tells a person the copy is live), unlike a price stamp's age (describeAge).
 */

const JUST_NOW_MS = 5_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** "just now", "12 s ago", then as describeAge: "3 min ago", "5 h ago", "2 days ago". */
export function describeRecentAge(iso: string | number, now: number): string {
  const at = typeof iso === "number" ? iso : Date.parse(iso);
  const age = Math.max(0, now - at);
  if (age < JUST_NOW_MS) return "just now";
  if (age < MINUTE_MS) return `${String(Math.floor(age / 1000))} s ago`;
  return describeAge(at, now);
}

/** A time left, rounded as a person says it: "less than a minute", "about 3 min", "about 2 h 10 min". */
export function describeTimeLeft(ms: number): string {
  if (ms < MINUTE_MS) return "less than a minute";
  if (ms < HOUR_MS) return `about ${String(Math.round(ms / MINUTE_MS))} min`;
  const hours = Math.floor(ms / HOUR_MS);
  const minutes = Math.round((ms - hours * HOUR_MS) / MINUTE_MS);
  return minutes === 0 || minutes === 60
    ? `about ${String(minutes === 60 ? hours + 1 : hours)} h`
    : `about ${String(hours)} h ${String(minutes)} min`;
}

const monthFormat = onFirstUse(
  () => new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" }),
);

/** An instant's month (UTC) as "Mar 2025". */
export function formatMonthYear(iso: string): string {
  return monthFormat().format(new Date(iso));
}
