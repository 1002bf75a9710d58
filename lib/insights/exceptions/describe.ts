import { formatDecimal, formatDollarsPerGallon, formatMoney } from "@/lib/format/numbers";
import { localMsOf } from "@/lib/mirror";
import { fromMinorUnits } from "@/lib/model";
import type { ExceptionContextFilter } from "@/lib/model/insight-exceptions";

import type { Purchase } from "./types";

/** The words and numbers of the rules' sentences: one home, so every sentence writes a card or a span alike. */

const MINUTE_MS = 60_000;

/** The purchase's local wall time as a UTC Date (read its getUTC… parts): its own offset, UTC when it had none. */
export const localWall = (p: Pick<Purchase, "atMs" | "offsetMin">): Date => new Date(localMsOf(p.atMs, p.offsetMin));

const DAY_MS = 86_400_000;
/** Days remembered at most (a period and its neighbours are a few hundred); past this the memo starts over. */
const MAX_DAYS_REMEMBERED = 10_000;
const dayNames = new Map<number, string>();

/**
 * YYYY-MM-DD of the purchase's local date (lib/mirror/local-dates' localDateOf), the text remembered per day: every
 * hit writes its dates, and a Date's ISO text costs more than the rest of a hit.
 */
export function localDate(p: Pick<Purchase, "atMs" | "offsetMin">): string {
  const day = Math.floor(localMsOf(p.atMs, p.offsetMin) / DAY_MS);
  let name = dayNames.get(day);
  if (name === undefined) {
    if (dayNames.size >= MAX_DAYS_REMEMBERED) dayNames.clear();
    name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dayNames.set(day, name);
  }
  return name;
}

/** "412.0 gal" from thousandths of a gallon. */
export const gallons = (milli: number): string => `${formatDecimal(milli / 1000, 1)} gal`;

/** "$3.859" from thousandths of a dollar. */
export const unitPrice = (milli: number): string => formatDollarsPerGallon(milli / 1000);

/** "$1,234.50" from whole cents, exactly (integers, never a float). */
export const money = (cents: bigint): string => formatMoney(fromMinorUnits(cents, 2));

export const miles = (value: number): string => `${formatDecimal(value, 0)} mi`;

export const percent = (value: number): string => `${formatDecimal(value, 1, 0)} %`;

/** "card •••• 4480" */
export const card = (last4: string): string => `card •••• ${last4}`;

/** "2 h 10 min", "45 min", "0 min" (whole minutes, rounded down: a span never reads longer than it was). */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / MINUTE_MS);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${String(m)} min`;
  return m === 0 ? `${String(h)} h` : `${String(h)} h ${String(m)} min`;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** "Saturday 2026-11-21 23:40" in the purchase's local time. */
export function localMoment(p: Pick<Purchase, "atMs" | "offsetMin">): string {
  const wall = localWall(p);
  const time = wall.toISOString().slice(11, 16);
  return `${WEEKDAYS[wall.getUTCDay()] ?? ""} ${localDate(p)} ${time}`;
}

export const hourName = (hour: number): string => `${String(hour).padStart(2, "0")}:00`;

/**
 * The list filter of a subject's purchases on the local days of `purchases`: from the earliest local date to the
 * latest. Not the first and last in time: across offsets a later purchase can carry an earlier local date (23:50 in
 * New York is 20:50 in Los Angeles), and from > to would be the list's 400.
 */
export function contextOf(
  purchases: readonly Purchase[],
  subject: { driver?: string; card?: string; truck?: string },
  label: string,
): ExceptionContextFilter {
  const dates = purchases.map(localDate).sort();
  const from = dates[0];
  const to = dates[dates.length - 1];
  if (from === undefined || to === undefined) throw new RangeError("a hit needs at least one purchase");
  return {
    from,
    to,
    driver: subject.driver ?? null,
    card: subject.card ?? null,
    truck: subject.truck ?? null,
    label,
  };
}
