import { dayInZone, UTC_ZONE, zoneOffsetMinutes } from "@/lib/model/time-zones";

import { onFirstUse } from "./on-first-use";
import { preferredTimeZone } from "./time-zone-preference";

/**
 * Dates and times for people (en-US). An instant is shown in one zone the user can see and change (see
 * time-zone-preference.ts), always labelled with it ("Nov 24, 2:05 PM PST"), with the year when it is not the
 * current one. Calendar days of the summary are UTC days.
 */

const LOCALE = "en-US";

function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  return onFirstUse(() => new Intl.DateTimeFormat(LOCALE, options));
}

const dayFormat = lazyFormat({ month: "short", day: "numeric", timeZone: "UTC" });
const longDayFormat = lazyFormat({
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const fullDateTimeFormat = lazyFormat({ dateStyle: "full", timeStyle: "long" });

/** A UTC calendar day (YYYY-MM-DD) as "Mar 4". */
export function formatDay(date: string): string {
  return dayFormat().format(new Date(`${date}T00:00:00Z`));
}

/** A UTC calendar day (YYYY-MM-DD) as "Wed, Mar 4, 2026". */
export function formatLongDay(date: string): string {
  return longDayFormat().format(new Date(`${date}T00:00:00Z`));
}

/** An instant in the runtime's zone, in full with the zone (for a tooltip). */
export function formatFullDateTime(iso: string): string {
  return fullDateTimeFormat().format(new Date(iso));
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string, withYear: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${String(withYear)}`;
  let f = formats.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(LOCALE, {
      timeZone: zone,
      month: "short",
      day: "numeric",
      ...(withYear ? { year: "numeric" } : {}),
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    });
    formats.set(key, f);
  }
  return f;
}

/** "GMT+9" → "UTC+9", "GMT-8" → "UTC−8" (a real minus), "GMT" → "UTC"; names such as "PST" stay. */
function readableZoneName(name: string): string {
  return name.replace(/^GMT/, "UTC").replace("-", "−");
}

/** "Nov 24, 2:05 PM PST"; "Nov 24, 2025, 2:05 PM PST" when the year (in that zone) is not the current one. */
export function formatDateTime(iso: string, zone: string = preferredTimeZone(), now: Date = new Date()): string {
  const date = new Date(iso);
  const withYear = dayInZone(date.getTime(), zone).slice(0, 4) !== dayInZone(now.getTime(), zone).slice(0, 4);
  return format(zone, withYear)
    .formatToParts(date)
    .map((part) => (part.type === "timeZoneName" ? readableZoneName(part.value) : part.value))
    .join("");
}

/** "UTC−08:00" at that instant (daylight saving included). */
function formatOffset(instantMs: number, zone: string): string {
  const minutes = zoneOffsetMinutes(instantMs, zone);
  if (minutes === 0) return "UTC";
  const sign = minutes < 0 ? "−" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** For a `title`: "America/Los_Angeles, UTC−08:00 (2026-05-15 21:30 UTC)". */
export function describeOffset(iso: string, zone: string = preferredTimeZone()): string {
  return `${zone}, ${formatOffset(Date.parse(iso), zone)} (${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC)`;
}

/** A zone as a person reads it in a list: "America/Los_Angeles (UTC−08:00)", the offset now. */
export function formatZoneName(zone: string, now: Date = new Date()): string {
  return zone === UTC_ZONE ? "UTC" : `${zone.replaceAll("_", " ")} (${formatOffset(now.getTime(), zone)})`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "just now", "12 min ago", "5 h ago", "3 days ago": how old a price stamp or a loaded catalog is at `now`. */
export function describeAge(iso: string | number, now: number): string {
  const at = typeof iso === "number" ? iso : Date.parse(iso);
  const age = Math.max(0, now - at);
  if (age < MINUTE_MS) return "just now";
  if (age < HOUR_MS) return `${String(Math.floor(age / MINUTE_MS))} min ago`;
  if (age < DAY_MS) return `${String(Math.floor(age / HOUR_MS))} h ago`;
  const days = Math.floor(age / DAY_MS);
  return `${String(days)} ${days === 1 ? "day" : "days"} ago`;
}
