import { DAY_MS } from "./sync-days";

/**
 * The calendar date of an instant in an IANA time zone, fast: a year's summary maps 35,000 quarter hours to their
 * local days, and one Intl call per instant cost more than the query. The zone's UTC offset is read with Intl only at
 * 6-hour marks; where two marks agree, the offset holds in between (no zone changes its offset twice within 6 hours);
 * where they differ, the change is found by bisection on the quarter-hour grid (every transition of a zone whose
 * offsets are whole quarter hours falls on it). The test compares it with Intl over random instants and zones.
 */

const SLOT_MS = 6 * 3_600_000;
const QUARTER_MS = 15 * 60_000;

type LocalDateOf = (ms: number) => string;

/** The zone's offset (local wall time − UTC) at an instant, in ms, from Intl. */
function offsetReader(timeZone: string): (ms: number) => number {
  const formatter = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  return (ms) => {
    const p: Record<string, number> = {};
    for (const part of formatter.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
    return wall - Math.floor(ms / 1000) * 1000;
  };
}

/** Offset functions by zone, kept (with what they learnt) across calls: the Intl calls are the slow part. */
const byZone = new Map<string, (ms: number) => number>();
const ZONES_KEPT = 64;

/** An offset function of the zone, exact on whole seconds' offsets changing on the quarter-hour grid. */
export function offsetOf(timeZone: string): (ms: number) => number {
  let offset = byZone.get(timeZone);
  if (!offset) {
    if (byZone.size >= ZONES_KEPT) byZone.clear();
    byZone.set(timeZone, (offset = learnOffsets(timeZone)));
  }
  return offset;
}

function learnOffsets(timeZone: string): (ms: number) => number {
  const read = offsetReader(timeZone);
  const atMark = new Map<number, number>();
  const mark = (slot: number) => {
    let o = atMark.get(slot);
    if (o === undefined) atMark.set(slot, (o = read(slot * SLOT_MS)));
    return o;
  };
  /** Per slot: the offset at its start, and where it changes to the next mark's (null: it does not). */
  const slots = new Map<number, { before: number; after: number; changeMs: number | null }>();
  const slotOf = (slot: number) => {
    let s = slots.get(slot);
    if (s) return s;
    const before = mark(slot);
    const after = mark(slot + 1);
    let changeMs: number | null = null;
    if (before !== after) {
      // The first quarter hour of the slot whose offset is already `after`.
      let lo = 0;
      let hi = SLOT_MS / QUARTER_MS;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (read(slot * SLOT_MS + mid * QUARTER_MS) === after) hi = mid;
        else lo = mid + 1;
      }
      changeMs = slot * SLOT_MS + lo * QUARTER_MS;
    }
    slots.set(slot, (s = { before, after, changeMs }));
    return s;
  };
  return (ms) => {
    const s = slotOf(Math.floor(ms / SLOT_MS));
    return s.changeMs === null || ms < s.changeMs ? s.before : s.after;
  };
}

/** The local day number (days since 1970-01-01 in local wall time) of instants in the zone. */
export function localDayNumberOf(timeZone: string): (ms: number) => number {
  const offset = offsetOf(timeZone);
  return (ms) => Math.floor((ms + offset(ms)) / DAY_MS);
}

/** YYYY-MM-DD of a local day number. */
export const dayName = (dayNumber: number): string => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

/** YYYY-MM-DD of instants in the zone. */
export function localDateOf(timeZone: string): LocalDateOf {
  const day = localDayNumberOf(timeZone);
  return (ms) => dayName(day(ms));
}
