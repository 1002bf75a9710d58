import type Database from "better-sqlite3";

import { dayCounts, MAX_SEC, seekDay, sumOf } from "./day-counts";
import type { CustomerRow, PageRequest, StationRow, TransactionFilter, TransactionRow } from "./rows";
import { likePattern, searchedPage, type SearchOptions } from "./transaction-search";

const TX_COLUMNS = `
  t.pk, t.id, t.ref, t.at_utc, t.tz_offset_min, t.status, t.product, t.gallons_milli, t.price_milli, t.amount_cents,
  t.def_gallons_milli, t.def_amount_cents, t.def_category, t.source, t.created_at, t.updated_at,
  s.id AS station_id, s.name AS station_name, s.loc_num AS station_loc, s.city AS station_city, s.state AS station_state,
  s.address AS station_address, s.zip AS station_zip,
  d.id AS driver_id, d.name AS driver_name, d.truck_id AS driver_truck, d.email AS driver_email,
  c.last4 AS card_last4, c.type AS card_type`;
const TX_JOINS = `JOIN stations s ON s.pk = t.station_pk JOIN drivers d ON d.pk = t.driver_pk JOIN cards c ON c.pk = t.card_pk`;

/** Up to this many matches a search page is sorted from the dimension indexes; above it the time index is walked. */
const MATERIALIZE_MAX = 20_000;
/** From this offset on, a broad search's page skips whole days by per-day counts instead of walking from the top. */
const SEEK_AFTER = 5_000;
/** Count a search through its complement when fewer than this share of one dimension's values fail to match. */
const COMPLEMENT_BELOW = 0.3;

/** The sandbox's reads, with prepared statements cached by their SQL text. */
export class Queries {
  private readonly stmt = new Map<string, Database.Statement>();
  private readonly search: SearchOptions;

  /** The options exist so tests can force each strategy; the defaults are what the server uses. */
  constructor(
    private readonly db: Database.Database,
    options: Partial<SearchOptions> = {},
  ) {
    this.search = {
      materializeMax: options.materializeMax ?? MATERIALIZE_MAX,
      seekAfter: options.seekAfter ?? SEEK_AFTER,
      complementBelow: options.complementBelow ?? COMPLEMENT_BELOW,
      stationBuckets: options.stationBuckets ?? true,
    };
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
    const prepare = (sql: string) => this.prepare(sql);
    const pks = filter.search
      ? searchedPage(prepare, this.search, filter, filter.search, { limit: page.limit, offset })
      : this.plainPage(filter, page.limit, offset);
    if (pks.pks.length === 0) return { total: pks.total, rows: [] };
    const rows = this.prepare(
      `SELECT ${TX_COLUMNS} FROM transactions t ${TX_JOINS} WHERE t.pk IN (SELECT value FROM json_each(?)) ORDER BY t.at_utc DESC, t.pk DESC`,
    ).all(JSON.stringify(pks.pks)) as TransactionRow[];
    return { total: pks.total, rows };
  }

  private plainPage(filter: TransactionFilter, limit: number, offset: number): { total: number; pks: number[] } {
    const days = dayCounts((sql) => this.prepare(sql), filter);
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
