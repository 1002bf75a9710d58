/**
 * The one `Retry-After` reader (RFC 9110 §10.2.3), zod-free so the browser uses it too: the upstream client reads the
 * provider's header with it, the pages read the BFF's.
 */

/**
 * A wait beyond this is not believed: a broken header must not pause a key, or freeze a page, for hours. Ten minutes
 * is ten windows of the upstream's request budget.
 */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

const DAY_NAMES = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY_NAMES = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] as const;
const MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** The three HTTP-date forms of RFC 9110 §5.6.7: IMF-fixdate, obsolete RFC 850 and asctime. */
const IMF_FIXDATE = new RegExp(`^${DAY_NAMES}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, "i");
const RFC_850_DATE = new RegExp(`^${LONG_DAY_NAMES}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, "i");
const ASCTIME_DATE = new RegExp(`^${DAY_NAMES} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, "i");
const DELTA_SECONDS = /^\d+(?:\.\d+)?$/;
/** RFC 9110: a two-digit year more than 50 years ahead means the previous century. */
const TWO_DIGIT_YEAR_HORIZON = 50;

const utcMs = (year: number, month: string, day: string, hh: string, mm: string, ss: string): number | undefined => {
  const monthIndex = MONTHS.indexOf(month.toLowerCase() as (typeof MONTHS)[number]);
  const [d, h, m, s] = [Number(day), Number(hh), Number(mm), Number(ss)];
  if (monthIndex < 0 || h > 23 || m > 59 || s > 60) return undefined;
  const ms = Date.UTC(year, monthIndex, d, h, m, Math.min(s, 59));
  // Date.UTC rolls 31 Feb over into March; an impossible date is garbage, not a date.
  return new Date(ms).getUTCDate() === d ? ms : undefined;
};

const parseHttpDate = (value: string, nowMs: number): number | undefined => {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, day = "", month = "", year = "", hh = "", mm = "", ss = ""] = match;
    return utcMs(Number(year), month, day, hh, mm, ss);
  }
  match = RFC_850_DATE.exec(value);
  if (match) {
    const [, day = "", month = "", yy = "", hh = "", mm = "", ss = ""] = match;
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + TWO_DIGIT_YEAR_HORIZON) year -= 100;
    return utcMs(year, month, day, hh, mm, ss);
  }
  match = ASCTIME_DATE.exec(value);
  if (match) {
    const [, month = "", day = "", hh = "", mm = "", ss = "", year = ""] = match;
    return utcMs(Number(year), month, day.trim(), hh, mm, ss);
  }
  return undefined;
};

/**
 * Milliseconds to wait from a `Retry-After` header: delta-seconds ("23" → 23 000; fractions tolerated) or an
 * HTTP-date (a past date → 0), clamped to `maxMs`. `undefined` when the header is missing or unreadable: the caller
 * picks its own default wait.
 */
export function parseRetryAfterMs(
  header: string | null | undefined,
  nowMs: number,
  maxMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (DELTA_SECONDS.test(value)) return Math.min(maxMs, Math.ceil(Number(value) * 1000));
  const dateMs = parseHttpDate(value, nowMs);
  return dateMs === undefined ? undefined : Math.min(maxMs, Math.max(0, dateMs - nowMs));
}

/** `parseRetryAfterMs` in whole seconds, rounded up (what a `Retry-After` we send, or a countdown, shows). */
export function parseRetryAfterSeconds(
  header: string | null | undefined,
  nowMs: number,
  maxMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  const ms = parseRetryAfterMs(header, nowMs, maxMs);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}
