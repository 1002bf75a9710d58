import type Database from "better-sqlite3";

/** Rows as the routes need them; minor units stay integers until a presenter formats them. */
export interface TransactionRow {
  pk: number;
  id: string;
  ref: string;
  at_utc: number;
  tz_offset_min: number;
  status: "completed" | "pending" | "failed";
  product: string;
  gallons_milli: number;
  price_milli: number;
  amount_cents: number;
  def_gallons_milli: number;
  def_amount_cents: number;
  def_category: string;
  source: string;
  created_at: number;
  updated_at: number;
  station_id: string;
  station_name: string;
  station_loc: string;
  station_city: string;
  station_state: string;
  station_address: string;
  station_zip: string;
  driver_id: string;
  driver_name: string;
  driver_truck: string | null;
  driver_email: string;
  card_last4: string;
  card_type: string;
}

export interface StationRow {
  pk: number;
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  lat: number;
  lng: number;
  phone: string;
  amenities: string;
  has_def: number;
  diesel_milli: number;
  unleaded_milli: number;
  def_milli: number | null;
  price_updated_at: string;
}

export interface CustomerRow {
  pk: number;
  id: string;
  code: string;
  name: string;
  active: number;
  fee_milli: number;
  created_at: string;
}

export interface TransactionFilter {
  customerPk: number;
  /** Inclusive bounds, epoch seconds. */
  fromSec?: number;
  toSec?: number;
  status?: string;
  search?: string;
}

export interface PageRequest {
  page: number;
  limit: number;
}

const TX_COLUMNS = `
  t.pk, t.id, t.ref, t.at_utc, t.tz_offset_min, t.status, t.product, t.gallons_milli, t.price_milli, t.amount_cents,
  t.def_gallons_milli, t.def_amount_cents, t.def_category, t.source, t.created_at, t.updated_at,
  s.id AS station_id, s.name AS station_name, s.loc_num AS station_loc, s.city AS station_city, s.state AS station_state,
  s.address AS station_address, s.zip AS station_zip,
  d.id AS driver_id, d.name AS driver_name, d.truck_id AS driver_truck, d.email AS driver_email,
  c.last4 AS card_last4, c.type AS card_type`;
const TX_JOINS = `JOIN stations s ON s.pk = t.station_pk JOIN drivers d ON d.pk = t.driver_pk JOIN cards c ON c.pk = t.card_pk`;

/** `%` and `_` in user input are literal characters, not wildcards. */
const DAY_SEC = 86_400;
/** Upper bound for "no upper bound" on epoch seconds (year 9999). */
const MAX_SEC = 253_402_300_799;
/** Up to this many matches a search page is sorted from the dimension indexes; above it the time index is walked. */
const MATERIALIZE_MAX = 20_000;

/** From this offset on, a broad search's page skips whole days by per-day counts instead of walking from the top. */
const SEEK_AFTER = 5_000;
/** Count a search through its complement when fewer than this share of one dimension's values fail to match. */
const COMPLEMENT_BELOW = 0.3;
/** The buckets of `tx_station_buckets`: 32 days, so bucket edges are day edges. */
const BUCKET_SEC = 32 * DAY_SEC;
/**
 * Up to this share of all stations matched, `tx_station_buckets` is read by one seek per bucket and matched station;
 * above it, by scanning the customer's buckets in range ('travel', 1,408 stations: 8.7 ms scanned, 10.3 by seeks;
 * 'pilot', 584: 5.4 vs 4.5; a few stations: 3 ms vs 0.03).
 */
const BUCKET_SEEKS_UP_TO = 0.5;

interface DayCount {
  day: number;
  n: number;
}

/** The search dimensions, each with its covering index. Order matters: it decides which part a row counts in. */
const DIMENSIONS = [
  { key: "stations", column: "station_pk", index: "tx_station" },
  { key: "drivers", column: "driver_pk", index: "tx_driver" },
  { key: "cards", column: "card_pk", index: "tx_card" },
] as const;
type Dimension = (typeof DIMENSIONS)[number];

const sumOf = (days: readonly DayCount[]) => days.reduce((sum, d) => sum + d.n, 0);

/**
 * Given per-day counts newest first, the number of rows in the whole days newer than the one holding row
 * `offset`, and the last second of that day: the page query then starts there with a small OFFSET. With `periodSec`
 * the counts are of longer periods (`day` is then the period's number).
 */
function seekDay(
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

export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export class Queries {
  private readonly stmt = new Map<string, Database.Statement>();

  private readonly materializeMax: number;
  private readonly complementBelow: number;
  private readonly seekAfter: number;
  private readonly stationBuckets: boolean;

  /** The options exist so tests can force each strategy; the defaults are what the server uses. */
  constructor(
    private readonly db: Database.Database,
    options: { materializeMax?: number; complementBelow?: number; seekAfter?: number; stationBuckets?: boolean } = {},
  ) {
    this.materializeMax = options.materializeMax ?? MATERIALIZE_MAX;
    this.seekAfter = options.seekAfter ?? SEEK_AFTER;
    this.complementBelow = options.complementBelow ?? COMPLEMENT_BELOW;
    this.stationBuckets = options.stationBuckets ?? true;
  }

  private prepare(sql: string): Database.Statement {
    let s = this.stmt.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmt.set(sql, s);
    }
    return s;
  }

  customer(pk: number): CustomerRow | undefined {
    return this.prepare("SELECT * FROM customers WHERE pk = ?").get(pk) as CustomerRow | undefined;
  }

  /** Rolling totals over [sinceSec, untilSec] of completed and pending transactions (failed ones are not spend). */
  totals(
    customerPk: number,
    sinceSec: number,
    untilSec: number,
  ): { count: number; gallonsMilli: number; amountCents: number } {
    const row = this.prepare(
      `SELECT COUNT(*) AS count, COALESCE(SUM(gallons_milli), 0) AS gallons, COALESCE(SUM(amount_cents), 0) AS amount
       FROM transactions WHERE customer_pk = ? AND at_utc BETWEEN ? AND ? AND status != 'failed'`,
    ).get(customerPk, sinceSec, untilSec) as { count: number; gallons: number; amount: number };
    return { count: row.count, gallonsMilli: row.gallons, amountCents: row.amount };
  }

  /**
   * One page of transactions, newest first, ties broken by insertion order (pk).
   * Without a search, totals and deep offsets come from the per-day counts (a few hundred rows), so no query
   * counts or skips a million index entries. A search first matches the small dimension tables (stations, this
   * customer's drivers and cards), then splits into disjoint parts, one per dimension index.
   */
  transactionPage(filter: TransactionFilter, page: PageRequest): { total: number; rows: TransactionRow[] } {
    const offset = (page.page - 1) * page.limit;
    const pks = filter.search
      ? this.searchedPage(filter, filter.search, page.limit, offset)
      : this.plainPage(filter, page.limit, offset);
    if (pks.pks.length === 0) return { total: pks.total, rows: [] };
    const rows = this.prepare(
      `SELECT ${TX_COLUMNS} FROM transactions t ${TX_JOINS} WHERE t.pk IN (SELECT value FROM json_each(?)) ORDER BY t.at_utc DESC, t.pk DESC`,
    ).all(JSON.stringify(pks.pks)) as TransactionRow[];
    return { total: pks.total, rows };
  }

  /** Counts per UTC day, newest first, exact at partial first/last days. */
  private dayCounts(filter: TransactionFilter): DayCount[] {
    const fromSec = filter.fromSec ?? 0;
    const toSec = filter.toSec ?? MAX_SEC;
    const fromDay = Math.floor(fromSec / DAY_SEC);
    const toDay = Math.floor(toSec / DAY_SEC);
    const statusSql = filter.status === undefined ? "" : "AND status = @status";
    const days = this.prepare(
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
        this.prepare(
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

  private plainPage(filter: TransactionFilter, limit: number, offset: number): { total: number; pks: number[] } {
    const days = this.dayCounts(filter);
    const total = sumOf(days);
    if (offset >= total) return { total, pks: [] };
    const seek = seekDay(days, offset, filter.toSec ?? MAX_SEC);
    const index = filter.status === undefined ? "tx_time" : "tx_status_time";
    const pks = this.prepare(
      `SELECT pk FROM transactions INDEXED BY ${index}
       WHERE customer_pk = @customerPk ${filter.status === undefined ? "" : "AND status = @status"} AND at_utc BETWEEN @lo AND @hi
       ORDER BY at_utc DESC, pk DESC LIMIT @limit OFFSET @offset`,
    )
      .pluck()
      .all({
        customerPk: filter.customerPk,
        lo: filter.fromSec ?? 0,
        hi: seek.upper,
        limit,
        offset: offset - seek.skipped,
        ...(filter.status === undefined ? {} : { status: filter.status }),
      }) as number[];
    return { total, pks };
  }

  private searchedPage(
    filter: TransactionFilter,
    search: string,
    limit: number,
    offset: number,
  ): { total: number; pks: number[] } {
    const match = this.searchDimensions(filter.customerPk, search);
    if (DIMENSIONS.every((d) => match[d.key].matched.length === 0)) return { total: 0, pks: [] };
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
    const isIn = (d: Dimension, set: "Matched" | "Unmatched") =>
      `${d.column} IN (SELECT value FROM json_each(@${d.key}${set}))`;

    // A row belongs to the first dimension it matches, so these parts are disjoint and add up without a union.
    const searchParts = DIMENSIONS.flatMap((d, i) =>
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
    const parts = searchParts.map((p) => p.from);
    const count = (sql: string) => (this.prepare(`SELECT COUNT(*) AS n ${sql}`).get(params) as { n: number }).n;
    // The stations part comes first, so it has no exclusions: its counts per bucket are in tx_station_buckets.
    const stationBuckets = this.stationBuckets
      ? () =>
          this.stationBucketCounts(
            filter,
            params,
            match.stations.matched.length /
              Math.max(1, match.stations.matched.length + match.stations.unmatched.length),
          )
      : undefined;
    // When nearly every value of one dimension matches (a one-letter search), counting the few rows that do NOT
    // match, through that dimension's unmatched values, is far cheaper than counting the matches.
    let complement: Dimension | undefined;
    let smallest = this.complementBelow;
    for (const d of DIMENSIONS) {
      const { matched, unmatched } = match[d.key];
      const share = unmatched.length / Math.max(1, matched.length + unmatched.length);
      if (matched.length > 0 && share < smallest) {
        complement = d;
        smallest = share;
      }
    }
    const missingFrom = (c: Dimension) =>
      `FROM transactions INDEXED BY ${c.index} WHERE ${common} AND ${isIn(c, "Unmatched")} ${DIMENSIONS.filter(
        (d) => d !== c,
      )
        .map((d) => `AND NOT ${isIn(d, "Matched")}`)
        .join(" ")}`;

    let buckets: DayCount[] | undefined;
    let total = 0;
    if (complement) {
      total = sumOf(this.dayCounts(filter)) - count(missingFrom(complement));
    } else {
      // Each part is counted on its own. A later part excludes the rows of the earlier ones, which costs a lookup
      // per entry (83,000 entries of four drivers named White: 15 ms); when the earlier parts are smaller than the
      // part's plain count, it is that plain count minus the earlier parts' rows that also match it.
      const counted: { from: string; n: number }[] = [];
      for (const part of searchParts) {
        let n: number;
        if (part.d.key === "stations" && stationBuckets) {
          buckets = stationBuckets();
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
    }
    if (offset >= total) return { total, pks: [] };

    if (total <= this.materializeMax) {
      // Few matches: read them all from the dimension indexes and sort.
      const pks = this.prepare(
        `SELECT pk FROM (${parts.map((p) => `SELECT at_utc, pk ${p}`).join(" UNION ALL ")}) ORDER BY at_utc DESC, pk DESC LIMIT @limit OFFSET @offset`,
      )
        .pluck()
        .all({ ...params, limit, offset }) as number[];
      return { total, pks };
    }

    // Many matches: walk the covering time index, filtering on its columns. A page near the end is read by
    // walking from the oldest row; a page deep in the middle first skips whole days using per-day counts of the
    // matches (worth computing only when the offset is large).
    const anyMatch = `(${DIMENSIONS.map((d) => isIn(d, "Matched")).join(" OR ")})`;
    const end = Math.min(offset + limit, total);
    if (offset >= this.seekAfter && total - end < this.seekAfter) {
      const oldestFirst = this.prepare(
        `SELECT pk FROM transactions INDEXED BY tx_time WHERE ${common} AND ${anyMatch} ORDER BY at_utc ASC, pk ASC LIMIT @limit OFFSET @offset`,
      )
        .pluck()
        .all({ ...params, limit: end - offset, offset: total - end }) as number[];
      return { total, pks: oldestFirst }; // the row fetch orders them newest first
    }
    let seek = { skipped: 0, upper: filter.toSec ?? MAX_SEC };
    if (offset >= this.seekAfter) {
      if (complement) {
        const missing = new Map(
          (
            this.prepare(`SELECT at_utc / 86400 AS day, COUNT(*) AS n ${missingFrom(complement)} GROUP BY day`).all(
              params,
            ) as DayCount[]
          ).map((d) => [d.day, d.n]),
        );
        const days = this.dayCounts(filter).map((d) => ({ day: d.day, n: d.n - (missing.get(d.day) ?? 0) }));
        seek = seekDay(days, offset, seek.upper);
      } else {
        // Two steps: the 32-day bucket holding the offset (the stations part from tx_station_buckets when it is
        // there, the other parts grouped from their indexes), then the day within that bucket, grouped from the
        // parts' indexes over that bucket only.
        const grouped = (periodSec: number, over: Record<string, unknown>, skipStations: boolean) =>
          this.prepare(
            `SELECT day, SUM(n) AS n FROM (${searchParts
              .filter((p) => !(skipStations && p.d.key === "stations"))
              .map((p) => `SELECT at_utc / ${String(periodSec)} AS day, COUNT(*) AS n ${p.from} GROUP BY day`)
              .join(" UNION ALL ")}) GROUP BY day ORDER BY day DESC`,
          ).all(over) as DayCount[];
        let periods: DayCount[];
        if (buckets) {
          const merged = new Map(buckets.map((b) => [b.day, b.n]));
          if (searchParts.length > 1)
            for (const g of grouped(BUCKET_SEC, params, true)) merged.set(g.day, (merged.get(g.day) ?? 0) + g.n);
          periods = [...merged].map(([day, n]) => ({ day, n })).sort((a, b) => b.day - a.day);
        } else {
          periods = grouped(BUCKET_SEC, params, false);
        }
        const bucket = seekDay(periods, offset, seek.upper, BUCKET_SEC);
        // bucket.upper lies in the bucket holding the offset: its end, or the upper bound when that falls inside it.
        const inBucket = {
          ...params,
          lo: Math.max(filter.fromSec ?? 0, Math.floor(bucket.upper / BUCKET_SEC) * BUCKET_SEC),
          hi: bucket.upper,
        };
        const day = seekDay(grouped(DAY_SEC, inBucket, false), offset - bucket.skipped, bucket.upper);
        seek = { skipped: bucket.skipped + day.skipped, upper: day.upper };
      }
    }
    const pks = this.prepare(
      `SELECT pk FROM transactions INDEXED BY tx_time WHERE customer_pk = @customerPk AND at_utc BETWEEN @lo AND @upper
       ${filter.status === undefined ? "" : "AND status = @status"} AND ${anyMatch} ORDER BY at_utc DESC, pk DESC LIMIT @limit OFFSET @offset`,
    )
      .pluck()
      .all({ ...params, upper: seek.upper, limit, offset: offset - seek.skipped }) as number[];
    return { total, pks };
  }

  /**
   * Matches of the matched stations per 32-day bucket, newest first, from `tx_station_buckets`; a bucket only partly
   * inside the datetime bounds is counted exactly from the station index.
   */
  private stationBucketCounts(
    filter: TransactionFilter,
    params: Record<string, unknown>,
    matchedShare: number,
  ): DayCount[] {
    const fromSec = filter.fromSec ?? 0;
    const toSec = filter.toSec ?? MAX_SEC;
    const statusSql = filter.status === undefined ? "" : "AND status = @status";
    const matched = "station_pk IN (SELECT value FROM json_each(@stationsMatched))";
    // Two subqueries: SQLite answers a lone MIN or MAX from the key, but MIN and MAX together by a scan (3 ms).
    const span = this.prepare(
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
    const buckets = this.prepare(
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
        this.prepare(
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

  /** For each search dimension, the values (pks) whose text matches and those that do not. */
  private searchDimensions(
    customerPk: number,
    search: string,
  ): Record<Dimension["key"], { matched: number[]; unmatched: number[] }> {
    const pattern = likePattern(search);
    const split = (rows: { pk: number; hit: number }[]) => ({
      matched: rows.filter((r) => r.hit).map((r) => r.pk),
      unmatched: rows.filter((r) => !r.hit).map((r) => r.pk),
    });
    return {
      stations: split(
        this.prepare("SELECT pk, name LIKE ? ESCAPE '\\' AS hit FROM stations").all(pattern) as {
          pk: number;
          hit: number;
        }[],
      ),
      drivers: split(
        this.prepare("SELECT pk, name LIKE ? ESCAPE '\\' AS hit FROM drivers WHERE customer_pk = ?").all(
          pattern,
          customerPk,
        ) as { pk: number; hit: number }[],
      ),
      cards: split(
        this.prepare("SELECT pk, last4 LIKE ? ESCAPE '\\' AS hit FROM cards WHERE customer_pk = ?").all(
          pattern,
          customerPk,
        ) as { pk: number; hit: number }[],
      ),
    };
  }

  transaction(customerPk: number, id: string): TransactionRow | undefined {
    return this.prepare(
      `SELECT ${TX_COLUMNS} FROM transactions t ${TX_JOINS} WHERE t.id = ? AND t.customer_pk = ?`,
    ).get(id, customerPk) as TransactionRow | undefined;
  }

  locationPage(
    filter: { brands?: readonly string[]; excludeBrands?: readonly string[]; state?: string; search?: string },
    page: PageRequest,
  ): { total: number; rows: StationRow[] } {
    const where: string[] = ["1 = 1"];
    const params: Record<string, unknown> = {};
    if (filter.brands) {
      where.push("brand IN (SELECT value FROM json_each(@brands))");
      params.brands = JSON.stringify(filter.brands);
    }
    if (filter.excludeBrands) {
      where.push("brand NOT IN (SELECT value FROM json_each(@excludeBrands))");
      params.excludeBrands = JSON.stringify(filter.excludeBrands);
    }
    if (filter.state) {
      where.push("state = @state");
      params.state = filter.state;
    }
    if (filter.search) {
      where.push(
        "(name LIKE @pattern ESCAPE '\\' OR city LIKE @pattern ESCAPE '\\' OR loc_num LIKE @pattern ESCAPE '\\')",
      );
      params.pattern = likePattern(filter.search);
    }
    const whereSql = where.join(" AND ");
    const total = (this.prepare(`SELECT COUNT(*) AS n FROM stations WHERE ${whereSql}`).get(params) as { n: number }).n;
    const rows = this.prepare(
      `SELECT * FROM stations WHERE ${whereSql} ORDER BY loc_num LIMIT @limit OFFSET @offset`,
    ).all({
      ...params,
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    }) as StationRow[];
    return { total, rows };
  }

  station(id: string): StationRow | undefined {
    return this.prepare("SELECT * FROM stations WHERE id = ?").get(id) as StationRow | undefined;
  }
}
