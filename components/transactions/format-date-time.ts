import { dayInZone, isTimeZone, UTC_ZONE, zoneOffsetMinutes } from "@/lib/model/time-zones";

/**
 * Date-times in one time zone the user can see and change (the browser's by default, or the one picked on the
 * transactions page, remembered in this browser), always labelled with that zone ("Nov 24, 2:05 PM PST"), with the
 * year when it is not the current one. The filters count days in the same zone, so what a row says and which day it
 * is filed under never disagree.
 */

const LOCALE = "en-US";
const STORAGE_KEY = "ffd:time-zone";

/** The browser's own zone (UTC where the runtime cannot say, e.g. during prerendering). */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isTimeZone(zone) ? zone : UTC_ZONE;
  } catch {
    return UTC_ZONE;
  }
}

/** The zone chosen on the transactions page earlier in this browser, else the browser's. */
export function preferredTimeZone(): string {
  try {
    const stored = typeof window === "undefined" ? null : window.localStorage.getItem(STORAGE_KEY);
    if (stored !== null && isTimeZone(stored)) return stored;
  } catch {
    // Storage refused (private mode, a policy): the browser's zone.
  }
  return browserTimeZone();
}

/** Remembers a chosen zone for the next visit; choosing the browser's own zone forgets the choice. */
export function rememberTimeZone(zone: string): void {
  try {
    if (zone === browserTimeZone()) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, zone);
  } catch {
    // Not remembered; the URL still carries it.
  }
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

/** The zone's short name at an instant: "PST", "PDT", "UTC+9". */
export function zoneAbbreviation(iso: string, zone: string): string {
  const part = format(zone, false)
    .formatToParts(new Date(iso))
    .find((p) => p.type === "timeZoneName");
  return readableZoneName(part?.value ?? zone);
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

/** The zones a person may pick: the browser's, UTC, the US zones a fleet usually spans, then every other zone. */
const COMMON_ZONES = [
  "UTC",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
];

export function timeZoneChoices(current: string): { common: string[]; other: string[] } {
  const common = [...new Set([browserTimeZone(), current, ...COMMON_ZONES])].filter(isTimeZone);
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf("timeZone");
  } catch {
    all = [];
  }
  const seen = new Set(common);
  return { common, other: all.filter((zone) => !seen.has(zone)) };
}
