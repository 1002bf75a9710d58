/**
 * One page of a searched transaction list. A search first matches the small dimension tables (stations, this
 * customer's drivers and cards), then splits into disjoint parts, one per dimension index: counted on their own (or
 * through the complement when nearly everything matches), read from the dimension indexes when few, else by walking
 * the covering time index from the nearest seek point.
 */
import {
  BUCKET_SEC,
  DAY_SEC,
  type DayCount,
  dayCounts,
  MAX_SEC,
  type Prepare,
  seekDay,
  stationBucketCounts,
  sumOf,
} from "./day-counts";
import type { TransactionFilter } from "./rows";

/** The strategy thresholds of a search (see `Queries`); tests force each strategy through them. */
export interface SearchOptions {
  /** Up to this many matches a page is sorted from the dimension indexes; above it the time index is walked. */
  materializeMax: number;
  /** Count through the complement when fewer than this share of one dimension's values fail to match. */
  complementBelow: number;
  /** From this offset on, a broad search's page skips whole days by per-day counts instead of walking from the top. */
  seekAfter: number;
  /** Count the stations part from `tx_station_buckets`. */
  stationBuckets: boolean;
}

/** The search dimensions, each with its covering index. Order matters: it decides which part a row counts in. */
const DIMENSIONS = [
  { key: "stations", column: "station_pk", index: "tx_station" },
  { key: "drivers", column: "driver_pk", index: "tx_driver" },
  { key: "cards", column: "card_pk", index: "tx_card" },
] as const;
type Dimension = (typeof DIMENSIONS)[number];
type Matches = Record<Dimension["key"], { matched: number[]; unmatched: number[] }>;

/** `%` and `_` in user input are literal characters, not wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const isIn = (d: Dimension, set: "Matched" | "Unmatched") =>
  `${d.column} IN (SELECT value FROM json_each(@${d.key}${set}))`;

/** What every query of one search shares. */
interface SearchPlan {
  filter: TransactionFilter;
  match: Matches;
  params: Record<string, unknown>;
  /** The customer, datetime and status conditions. */
  common: string;
  /** One disjoint part per dimension with matches: a row belongs to the first dimension it matches. */
  parts: { d: Dimension; from: string }[];
  /** The dimension counted through its unmatched values, when nearly all of its values match. */
  complement: Dimension | undefined;
}

export function searchedPage(
  prepare: Prepare,
  options: SearchOptions,
  filter: TransactionFilter,
  search: string,
  page: { limit: number; offset: number },
): { total: number; pks: number[] } {
  const { limit, offset } = page;
  const plan = planSearch(prepare, filter, search, options.complementBelow);
  if (!plan) return { total: 0, pks: [] };
  const { total, buckets } = countMatches(prepare, plan, options.stationBuckets);
  if (offset >= total) return { total, pks: [] };

  if (total <= options.materializeMax) {
    // Few matches: read them all from the dimension indexes and sort.
    const pks = prepare(
      `SELECT pk FROM (${plan.parts.map((p) => `SELECT at_utc, pk ${p.from}`).join(" UNION ALL ")}) ORDER BY at_utc DESC, pk DESC LIMIT @limit OFFSET @offset`,
    )
      .pluck()
      .all({ ...plan.params, limit, offset }) as number[];
    return { total, pks };
  }

  // Many matches: walk the covering time index, filtering on its columns. A page near the end is read by
  // walking from the oldest row; a page deep in the middle first skips whole days using per-day counts of the
  // matches (worth computing only when the offset is large).
  const anyMatch = `(${DIMENSIONS.map((d) => isIn(d, "Matched")).join(" OR ")})`;
  const end = Math.min(offset + limit, total);
  if (offset >= options.seekAfter && total - end < options.seekAfter) {
    const oldestFirst = prepare(
      `SELECT pk FROM transactions INDEXED BY tx_time WHERE ${plan.common} AND ${anyMatch} ORDER BY at_utc ASC, pk ASC LIMIT @limit OFFSET @offset`,
    )
      .pluck()
      .all({ ...plan.params, limit: end - offset, offset: total - end }) as number[];
    return { total, pks: oldestFirst }; // the row fetch orders them newest first
  }
  const seek =
    offset >= options.seekAfter
      ? seekMatches(prepare, plan, buckets, offset)
      : { skipped: 0, upper: filter.toSec ?? MAX_SEC };
  const pks = prepare(
    `SELECT pk FROM transactions INDEXED BY tx_time WHERE customer_pk = @customerPk AND at_utc BETWEEN @lo AND @upper
       ${filter.status === undefined ? "" : "AND status = @status"} AND ${anyMatch} ORDER BY at_utc DESC, pk DESC LIMIT @limit OFFSET @offset`,
  )
    .pluck()
    .all({ ...plan.params, upper: seek.upper, limit, offset: offset - seek.skipped }) as number[];
  return { total, pks };
}

/** The plan of a search, or undefined when nothing matches at all. */
function planSearch(
  prepare: Prepare,
  filter: TransactionFilter,
  search: string,
  complementBelow: number,
): SearchPlan | undefined {
  const match = searchDimensions(prepare, filter.customerPk, search);
  if (DIMENSIONS.every((d) => match[d.key].matched.length === 0)) return undefined;
  const params: Record<string, unknown> = {
    customerPk: filter.customerPk,
    lo: filter.fromSec ?? 0,
    hi: filter.toSec ?? MAX_SEC,
    ...(filter.status === undefined ? {} : { status: filter.status }),
  };
  for (const d of DIMENSIONS) {
    params[`${d.key}Matched`] = JSON.stringify(match[d.key].matched);
    params[`${d.key}Unmatched`] = JSON.stringify(match[d.key].unmatched);
  }
  const common = `customer_pk = @customerPk AND at_utc BETWEEN @lo AND @hi ${filter.status === undefined ? "" : "AND status = @status"}`;
  // A row belongs to the first dimension it matches, so these parts are disjoint and add up without a union.
  const parts = DIMENSIONS.flatMap((d, i) =>
    match[d.key].matched.length === 0
      ? []
      : [
          {
            d,
            from: `FROM transactions INDEXED BY ${d.index} WHERE ${common} AND ${isIn(d, "Matched")} ${DIMENSIONS.slice(
              0,
              i,
            )
              .map((e) => `AND NOT ${isIn(e, "Matched")}`)
              .join(" ")}`,
          },
        ],
  );
  return { filter, match, params, common, parts, complement: complementDimension(match, complementBelow) };
}

/**
 * When nearly every value of one dimension matches (a one-letter search), counting the few rows that do NOT
 * match, through that dimension's unmatched values, is far cheaper than counting the matches.
 */
function complementDimension(match: Matches, complementBelow: number): Dimension | undefined {
  let complement: Dimension | undefined;
  let smallest = complementBelow;
  for (const d of DIMENSIONS) {
    const { matched, unmatched } = match[d.key];
    const share = unmatched.length / Math.max(1, matched.length + unmatched.length);
    if (matched.length > 0 && share < smallest) {
      complement = d;
      smallest = share;
    }
  }
  return complement;
}

/** The rows of the complement dimension's unmatched values that match no other dimension either. */
const missingFrom = (plan: SearchPlan, c: Dimension) =>
  `FROM transactions INDEXED BY ${c.index} WHERE ${plan.common} AND ${isIn(c, "Unmatched")} ${DIMENSIONS.filter(
    (d) => d !== c,
  )
    .map((d) => `AND NOT ${isIn(d, "Matched")}`)
    .join(" ")}`;

/** The number of matches, and (when the stations part was counted from them) the stations part's bucket counts. */
function countMatches(
  prepare: Prepare,
  plan: SearchPlan,
  useStationBuckets: boolean,
): { total: number; buckets: DayCount[] | undefined } {
  const { filter, match, params, common, complement } = plan;
  const count = (sql: string) => (prepare(`SELECT COUNT(*) AS n ${sql}`).get(params) as { n: number }).n;
  if (complement)
    return { total: sumOf(dayCounts(prepare, filter)) - count(missingFrom(plan, complement)), buckets: undefined };
  // Each part is counted on its own. A later part excludes the rows of the earlier ones, which costs a lookup
  // per entry (83,000 entries of four drivers named White: 15 ms); when the earlier parts are smaller than the
  // part's plain count, it is that plain count minus the earlier parts' rows that also match it.
  let buckets: DayCount[] | undefined;
  let total = 0;
  const counted: { from: string; n: number }[] = [];
  for (const part of plan.parts) {
    let n: number;
    if (part.d.key === "stations" && useStationBuckets) {
      // The stations part comes first, so it has no exclusions: its counts per bucket are in tx_station_buckets.
      const share =
        match.stations.matched.length / Math.max(1, match.stations.matched.length + match.stations.unmatched.length);
      buckets = stationBucketCounts(prepare, filter, params, share);
      n = sumOf(buckets);
    } else if (counted.length === 0) {
      n = count(part.from);
    } else {
      const plain = count(
        `FROM transactions INDEXED BY ${part.d.index} WHERE ${common} AND ${isIn(part.d, "Matched")}`,
      );
      n =
        counted.reduce((sum, c) => sum + c.n, 0) < plain
          ? plain - counted.reduce((sum, c) => sum + count(`${c.from} AND ${isIn(part.d, "Matched")}`), 0)
          : count(part.from);
    }
    counted.push({ from: part.from, n });
    total += n;
  }
  return { total, buckets };
}

/** Where the walk of the time index starts for a deep page: whole days (or buckets, then days) skipped. */
function seekMatches(
  prepare: Prepare,
  plan: SearchPlan,
  buckets: DayCount[] | undefined,
  offset: number,
): { skipped: number; upper: number } {
  const { filter, params, complement } = plan;
  const upper = filter.toSec ?? MAX_SEC;
  if (complement) {
    const missing = new Map(
      (
        prepare(`SELECT at_utc / 86400 AS day, COUNT(*) AS n ${missingFrom(plan, complement)} GROUP BY day`).all(
          params,
        ) as DayCount[]
      ).map((d) => [d.day, d.n]),
    );
    const days = dayCounts(prepare, filter).map((d) => ({ day: d.day, n: d.n - (missing.get(d.day) ?? 0) }));
    return seekDay(days, offset, upper);
  }
  // Two steps: the 32-day bucket holding the offset (the stations part from tx_station_buckets when it is
  // there, the other parts grouped from their indexes), then the day within that bucket, grouped from the
  // parts' indexes over that bucket only.
  const grouped = (periodSec: number, over: Record<string, unknown>, skipStations: boolean) =>
    prepare(
      `SELECT day, SUM(n) AS n FROM (${plan.parts
        .filter((p) => !(skipStations && p.d.key === "stations"))
        .map((p) => `SELECT at_utc / ${String(periodSec)} AS day, COUNT(*) AS n ${p.from} GROUP BY day`)
        .join(" UNION ALL ")}) GROUP BY day ORDER BY day DESC`,
    ).all(over) as DayCount[];
  let periods: DayCount[];
  if (buckets) {
    const merged = new Map(buckets.map((b) => [b.day, b.n]));
    if (plan.parts.length > 1)
      for (const g of grouped(BUCKET_SEC, params, true)) merged.set(g.day, (merged.get(g.day) ?? 0) + g.n);
    periods = [...merged].map(([day, n]) => ({ day, n })).sort((a, b) => b.day - a.day);
  } else {
    periods = grouped(BUCKET_SEC, params, false);
  }
  const bucket = seekDay(periods, offset, upper, BUCKET_SEC);
  // bucket.upper lies in the bucket holding the offset: its end, or the upper bound when that falls inside it.
  const inBucket = {
    ...params,
    lo: Math.max(filter.fromSec ?? 0, Math.floor(bucket.upper / BUCKET_SEC) * BUCKET_SEC),
    hi: bucket.upper,
  };
  const day = seekDay(grouped(DAY_SEC, inBucket, false), offset - bucket.skipped, bucket.upper);
  return { skipped: bucket.skipped + day.skipped, upper: day.upper };
}

/** For each search dimension, the values (pks) whose text matches and those that do not. */
function searchDimensions(prepare: Prepare, customerPk: number, search: string): Matches {
  const pattern = likePattern(search);
  const split = (rows: { pk: number; hit: number }[]) => ({
    matched: rows.filter((r) => r.hit).map((r) => r.pk),
    unmatched: rows.filter((r) => !r.hit).map((r) => r.pk),
  });
  return {
    stations: split(
      prepare("SELECT pk, name LIKE ? ESCAPE '\\' AS hit FROM stations").all(pattern) as { pk: number; hit: number }[],
    ),
    drivers: split(
      prepare("SELECT pk, name LIKE ? ESCAPE '\\' AS hit FROM drivers WHERE customer_pk = ?").all(
        pattern,
        customerPk,
      ) as { pk: number; hit: number }[],
    ),
    cards: split(
      prepare("SELECT pk, last4 LIKE ? ESCAPE '\\' AS hit FROM cards WHERE customer_pk = ?").all(
        pattern,
        customerPk,
      ) as { pk: number; hit: number }[],
    ),
  };
}
