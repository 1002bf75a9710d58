/**
 * Per-period counts of a customer's transactions, newest first, and the seek they allow: a page deep in the list starts
 * at the last second of the period holding its first row, with a small OFFSET, instead of skipping a million index
 * entries.
 */
import type Database from "better-sqlite3";

import type { TransactionFilter } from "./rows";

/** The statement cache of `Queries`: the same SQL text is prepared once. */
export type Prepare = (sql: string) => Database.Statement;

export const DAY_SEC = 86_400;
/** Upper bound for "no upper bound" on epoch seconds (year 9999). */
export const MAX_SEC = 253_402_300_799;
/** The buckets of `tx_station_buckets`: 32 days, so bucket edges are day edges. */
export const BUCKET_SEC = 32 * DAY_SEC;
/**
 * Up to this share of all stations matched, `tx_station_buckets` is read by one seek per bucket and matched station;
 * above it, by scanning the customer's buckets in range ('travel', 1,408 stations: 8.7 ms scanned, 10.3 by seeks;
 * 'pilot', 584: 5.4 vs 4.5; a few stations: 3 ms vs 0.03).
 */
const BUCKET_SEEKS_UP_TO = 0.5;

export interface DayCount {
  day: number;
  n: number;
}

export const sumOf = (days: readonly DayCount[]) => days.reduce((sum, d) => sum + d.n, 0);

/**
 * Given per-day counts newest first, the number of rows in the whole days newer than the one holding row
 * `offset`, and the last second of that day: the page query then starts there with a small OFFSET. With `periodSec`
 * the counts are of longer periods (`day` is then the period's number).
 */
export function seekDay(
  days: readonly DayCount[],
  offset: number,
  upper: number,
  periodSec = DAY_SEC,
): { skipped: number; upper: number } {
  let skipped = 0;
  for (const d of days) {
    if (skipped + d.n > offset) return { skipped, upper: Math.min(upper, d.day * periodSec + periodSec - 1) };
    skipped += d.n;
  }
  return { skipped, upper };
}

/** Counts per UTC day, newest first, exact at partial first/last days. */
export function dayCounts(prepare: Prepare, filter: TransactionFilter): DayCount[] {
  const fromSec = filter.fromSec ?? 0;
  const toSec = filter.toSec ?? MAX_SEC;
  const fromDay = Math.floor(fromSec / DAY_SEC);
  const toDay = Math.floor(toSec / DAY_SEC);
  const statusSql = filter.status === undefined ? "" : "AND status = @status";
  const days = prepare(
    `SELECT day, SUM(n) AS n FROM tx_day_counts WHERE customer_pk = @customerPk AND day BETWEEN @fromDay AND @toDay ${statusSql}
     GROUP BY day HAVING SUM(n) > 0 ORDER BY day DESC`,
  ).all({
    customerPk: filter.customerPk,
    fromDay,
    toDay,
    ...(filter.status === undefined ? {} : { status: filter.status }),
  }) as DayCount[];
  const exact = (day: number) =>
    (
      prepare(
        `SELECT COUNT(*) AS n FROM transactions WHERE customer_pk = @customerPk AND at_utc BETWEEN @lo AND @hi ${statusSql}`,
      ).get({
        customerPk: filter.customerPk,
        lo: Math.max(fromSec, day * DAY_SEC),
        hi: Math.min(toSec, day * DAY_SEC + DAY_SEC - 1),
        ...(filter.status === undefined ? {} : { status: filter.status }),
      }) as { n: number }
    ).n;
  for (const entry of days) {
    if (entry.day === fromDay && fromSec % DAY_SEC !== 0) entry.n = exact(entry.day);
    else if (entry.day === toDay && toSec % DAY_SEC !== DAY_SEC - 1) entry.n = exact(entry.day);
  }
  return days;
}

/**
 * Matches of the matched stations per 32-day bucket, newest first, from `tx_station_buckets`; a bucket only partly
 * inside the datetime bounds is counted exactly from the station index.
 */
export function stationBucketCounts(
  prepare: Prepare,
  filter: TransactionFilter,
  params: Record<string, unknown>,
  matchedShare: number,
): DayCount[] {
  const fromSec = filter.fromSec ?? 0;
  const toSec = filter.toSec ?? MAX_SEC;
  const statusSql = filter.status === undefined ? "" : "AND status = @status";
  const matched = "station_pk IN (SELECT value FROM json_each(@stationsMatched))";
  // Two subqueries: SQLite answers a lone MIN or MAX from the key, but MIN and MAX together by a scan (3 ms).
  const span = prepare(
    "SELECT (SELECT MIN(bucket) FROM tx_station_buckets WHERE customer_pk = @c) AS lo, (SELECT MAX(bucket) FROM tx_station_buckets WHERE customer_pk = @c) AS hi",
  ).get({ c: filter.customerPk }) as { lo: number | null; hi: number | null };
  const fromBucket = Math.max(Math.floor(fromSec / BUCKET_SEC), span.lo ?? 0);
  const toBucket = Math.min(Math.floor(toSec / BUCKET_SEC), span.hi ?? -1);
  if (fromBucket > toBucket) return [];
  // Seeks (bucket × station through the key) when few stations match, else one scan of the buckets in range.
  const inRange =
    matchedShare <= BUCKET_SEEKS_UP_TO
      ? "bucket IN (SELECT value FROM json_each(@bucketList))"
      : "bucket BETWEEN @fromBucket AND @toBucket";
  const buckets = prepare(
    `SELECT bucket AS day, SUM(n) AS n FROM tx_station_buckets
     WHERE customer_pk = @customerPk AND ${inRange} ${statusSql} AND ${matched}
     GROUP BY bucket HAVING SUM(n) > 0 ORDER BY bucket DESC`,
  ).all({
    ...params,
    fromBucket,
    toBucket,
    bucketList: JSON.stringify(Array.from({ length: toBucket - fromBucket + 1 }, (_, i) => fromBucket + i)),
  }) as DayCount[];
  for (const entry of buckets) {
    const start = entry.day * BUCKET_SEC;
    const end = start + BUCKET_SEC - 1;
    if (start >= fromSec && end <= toSec) continue;
    entry.n = (
      prepare(
        `SELECT COUNT(*) AS n FROM transactions INDEXED BY tx_station WHERE customer_pk = @customerPk AND at_utc BETWEEN @lo AND @hi ${statusSql} AND ${matched}`,
      ).get({
        ...params,
        lo: Math.max(fromSec, start),
        hi: Math.min(toSec, end),
      }) as { n: number }
    ).n;
  }
  return buckets.filter((b) => b.n > 0);
}
