import { isTimeZone, UTC_ZONE } from "@/lib/model/time-zones";

import { onFirstUse } from "./on-first-use";

/**
 * The zone the dashboard shows times in: the browser's own by default, or the one picked on the transactions page,
 * remembered in this browser. The filters count days in the same zone, so what a row says and which day it is filed
 * under never disagree.
 */

const STORAGE_KEY = "ffd:time-zone";

/**
 * The browser's own zone (UTC where the runtime cannot say, e.g. during prerendering), read once per page: asking
 * costs a new `Intl.DateTimeFormat`, and a list asked on every row through formatDateTime's default zone (issue 26:
 * 127 ms of one long task on /transactions, 4× CPU). A device that changes zone while a page is open keeps the
 * zone it loaded with until the next load; the picker on the transactions page changes it at once.
 */
export const browserTimeZone: () => string = onFirstUse(() => {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isTimeZone(zone) ? zone : UTC_ZONE;
  } catch {
    return UTC_ZONE;
  }
});

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

/**
 * The zones offered first: the browser's own (null while the page hydrates: the server cannot know it, and the first
 * render must match the server's), the one shown, UTC and the US zones.
 */
export function commonTimeZones(current: string, browserZone: string | null): string[] {
  return [...new Set([...(browserZone === null ? [] : [browserZone]), current, ...COMMON_ZONES])].filter(isTimeZone);
}

/** Every other zone the runtime knows (about 400), in its order. */
export function otherTimeZones(common: readonly string[]): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf("timeZone");
  } catch {
    all = [];
  }
  const seen = new Set(common);
  return all.filter((zone) => !seen.has(zone));
}
