/**
 * Calendar days in an IANA time zone, as instants: the transactions list filters by the days of the zone the user
 * sees (the browser's by default), while the upstream counts in UTC. Intl only (no date library): the browser and the
 * BFF share these rules, so the page's "today" and the BFF's bounds are the same days. Zod-free, so browser code may
 * import it.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** The zone filters fall back to where none is known (and the upstream's own). */
export const UTC_ZONE = "UTC";

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** An IANA zone name this runtime knows (`America/Chicago`, `UTC`); anything else is false, never a throw. */
export function isTimeZone(zone: string): boolean {
  if (zone === "" || zone.length > 64) return false;
  try {
    partsFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/** A YYYY-MM-DD that is a real calendar day. */
export function isIsoDay(value: string | null | undefined): value is string {
  if (value === null || value === undefined) return false;
  const match = ISO_DAY.exec(value);
  if (match === null) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999, so "0001-01-01" would not round-trip.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(
  instantMs: number,
  zone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const fields: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(instantMs))) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 1970,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

/** How far the zone's clock is ahead of UTC at that instant, in minutes (−480 for Los Angeles in winter). */
export function zoneOffsetMinutes(instantMs: number, zone: string): number {
  const w = wallClock(instantMs, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayInZone(instantMs: number, zone: string): string {
  const w = wallClock(instantMs, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** A calendar day moved by whole days ("2026-03-01" − 1 → "2026-02-28"). */
export function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * MS_PER_DAY;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The first instant of a day in a zone. Midnight is found from the offsets around it, so a day that starts at 01:00
 * because the clocks jumped at midnight (some zones switch daylight saving then) starts at that jump.
 */
export function startOfDayInZone(day: string, zone: string): number {
  const midnightAsUtc = Date.parse(`${day}T00:00:00Z`);
  let guess = midnightAsUtc - zoneOffsetMinutes(midnightAsUtc, zone) * 60_000;
  // One correction covers an offset that differs between the guess and the real midnight (a DST change nearby).
  guess = midnightAsUtc - zoneOffsetMinutes(guess, zone) * 60_000;
  // Midnight skipped by a jump forward: the guess lands on the previous day; the day starts at the jump.
  if (dayInZone(guess, zone) !== day) {
    let low = guess;
    let high = guess + 3 * 3_600_000;
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 2);
      if (dayInZone(mid, zone) === day) high = mid;
      else low = mid;
    }
    return high;
  }
  return guess;
}

export interface InstantRange {
  /** ISO 8601 instants in UTC (`…Z`), both ends inclusive, as the upstream's datetime form takes them. */
  from?: string;
  to?: string;
}

/** Whole days `from`..`to` (inclusive) of a zone as instants: the first millisecond of `from` to the last of `to`. */
export function zonedDaysToInstants(from: string | undefined, to: string | undefined, zone: string): InstantRange {
  const range: InstantRange = {};
  if (from !== undefined) range.from = new Date(startOfDayInZone(from, zone)).toISOString();
  if (to !== undefined) range.to = new Date(startOfDayInZone(addDays(to, 1), zone) - 1).toISOString();
  return range;
}
