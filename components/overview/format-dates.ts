const LOCALE = "en-US";

const dayFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", timeZone: "UTC" });
const longDayFormat = new Intl.DateTimeFormat(LOCALE, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const dateTimeWithYearFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
const fullDateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: "full", timeStyle: "long" });

/** A UTC calendar day (YYYY-MM-DD) as "Mar 4". */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

/** A UTC calendar day (YYYY-MM-DD) as "Wed, Mar 4, 2026". */
export function formatLongDay(date: string): string {
  return longDayFormat.format(new Date(`${date}T00:00:00Z`));
}

/** An instant in the user's time zone, short ("Mar 4, 2:15 PM"), with the year when it is not this year's ("Dec 30, 2025, 9:05 AM"). */
export function formatDateTime(iso: string, now: number = Date.now()): string {
  const date = new Date(iso);
  return (date.getFullYear() === new Date(now).getFullYear() ? dateTimeFormat : dateTimeWithYearFormat).format(date);
}

/** An instant in the user's time zone, in full with the zone (for a tooltip). */
export function formatFullDateTime(iso: string): string {
  return fullDateTimeFormat.format(new Date(iso));
}
