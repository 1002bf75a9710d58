const LOCALE = "en-US";

const dayFormat = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", timeZone: "UTC" });
const longDayFormat = new Intl.DateTimeFormat(LOCALE, {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const fullDateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: "full", timeStyle: "long" });

/** A UTC calendar day (YYYY-MM-DD) as "Mar 4". */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

/** A UTC calendar day (YYYY-MM-DD) as "Wed, Mar 4, 2026". */
export function formatLongDay(date: string): string {
  return longDayFormat.format(new Date(`${date}T00:00:00Z`));
}

/**
 * An instant in the user's time zone, short and labelled with it ("Mar 4, 2:15 PM PST", the year when not this
 * year): the one rule of the transactions page (the zone chosen there, remembered, else the browser's).
 */
export { formatDateTime } from "@/components/transactions/format-date-time";

/** An instant in the user's time zone, in full with the zone (for a tooltip). */
export function formatFullDateTime(iso: string): string {
  return fullDateTimeFormat.format(new Date(iso));
}
