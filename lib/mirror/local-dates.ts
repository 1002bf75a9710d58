import { type Expression, type RawBuilder, sql, type SqlBool } from "kysely";

import { DAY_MS } from "./sync-days";
import type { Eb } from "./types";

/**
 * Purchases by their **local date** (issue 16): `transaction_at` read with its own UTC offset. The mirror keeps the
 * instant (`at_ms`) and the offset the upstream sent (`local_offset_min`, null for Z), so the local wall time is
 * `at_ms + local_offset_min × 60 000`. Offsets lie within ±15 h, so the purchases of local dates [from, to] all fall in
 * the instants [from − 15 h, to + 1 day + 15 h): that window uses the (customer_id, at_ms) index; the exact test on
 * the wall time then keeps only the dates asked for.
 */

const MINUTE_MS = 60_000;
/** Wider than any UTC offset (−12 h … +14 h). */
export const OFFSET_MARGIN_MS = 15 * 3_600_000;

/** Local dates, both ends inclusive; an absent end is open. */
export interface LocalDays {
  from?: string | undefined;
  to?: string | undefined;
}

/** The local wall time of a row in ms since the epoch, as SQL (the same integer on SQLite and PostgreSQL). */
export const LOCAL_MS: RawBuilder<number> = sql<number>`(at_ms + coalesce(local_offset_min, 0) * ${MINUTE_MS})`;

/** The local wall time of an instant with its offset, in ms (read back with getUTC*). */
export const localMsOf = (atMs: number, offsetMin: number | null): number => atMs + (offsetMin ?? 0) * MINUTE_MS;

/** The purchase's local date, YYYY-MM-DD. */
export const localDateOf = (atMs: number, offsetMin: number | null): string =>
  new Date(localMsOf(atMs, offsetMin)).toISOString().slice(0, 10);

/** The first local wall-time ms of `from` and the first after `to` (UTC midnights of those dates). */
function localBounds(days: LocalDays): { fromMs?: number; toMs?: number } {
  return {
    ...(days.from === undefined ? {} : { fromMs: Date.parse(`${days.from}T00:00:00Z`) }),
    ...(days.to === undefined ? {} : { toMs: Date.parse(`${days.to}T00:00:00Z`) + DAY_MS }),
  };
}

/** The instants that can hold purchases of these local dates: the index-friendly window, [fromMs, toMs). */
export function scanWindowOf(days: LocalDays): { fromMs?: number; toMs?: number } {
  const b = localBounds(days);
  return {
    ...(b.fromMs === undefined ? {} : { fromMs: b.fromMs - OFFSET_MARGIN_MS }),
    ...(b.toMs === undefined ? {} : { toMs: b.toMs + OFFSET_MARGIN_MS }),
  };
}

/** The rows whose local date lies in `days`: the at_ms window (uses the index) and the exact wall-time test. */
export function localDayWhere(eb: Eb, days: LocalDays): Expression<SqlBool> {
  const b = localBounds(days);
  const w = scanWindowOf(days);
  const all: Expression<SqlBool>[] = [];
  if (w.fromMs !== undefined) all.push(eb("at_ms", ">=", w.fromMs));
  if (w.toMs !== undefined) all.push(eb("at_ms", "<", w.toMs));
  if (b.fromMs !== undefined) all.push(sql<SqlBool>`${LOCAL_MS} >= ${b.fromMs}`);
  if (b.toMs !== undefined) all.push(sql<SqlBool>`${LOCAL_MS} < ${b.toMs}`);
  return eb.and(all);
}
