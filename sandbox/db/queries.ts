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
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export class Queries {
  private readonly stmt = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

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
  totals(customerPk: number, sinceSec: number, untilSec: number): { count: number; gallonsMilli: number; amountCents: number } {
    const row = this.prepare(
      `SELECT COUNT(*) AS count, COALESCE(SUM(gallons_milli), 0) AS gallons, COALESCE(SUM(amount_cents), 0) AS amount
       FROM transactions WHERE customer_pk = ? AND at_utc BETWEEN ? AND ? AND status != 'failed'`,
    ).get(customerPk, sinceSec, untilSec) as { count: number; gallons: number; amount: number };
    return { count: row.count, gallonsMilli: row.gallons, amountCents: row.amount };
  }

  /**
   * One page of transactions, newest first, ties broken by insertion order.
   * Search never scans the transactions table: it matches the small dimension tables (stations, this customer's
   * drivers and cards) first, then walks the per-dimension indexes of transactions.
   */
  transactionPage(filter: TransactionFilter, page: PageRequest): { total: number; rows: TransactionRow[] } {
    const where: string[] = ["t.customer_pk = @customerPk"];
    const params: Record<string, unknown> = { customerPk: filter.customerPk };
    if (filter.fromSec !== undefined) {
      where.push("t.at_utc >= @fromSec");
      params.fromSec = filter.fromSec;
    }
    if (filter.toSec !== undefined) {
      where.push("t.at_utc <= @toSec");
      params.toSec = filter.toSec;
    }
    if (filter.status !== undefined) {
      where.push("t.status = @status");
      params.status = filter.status;
    }
    if (filter.search) {
      const match = this.searchDimensions(filter.customerPk, filter.search);
      if (match.stations.length + match.drivers.length + match.cards.length === 0) return { total: 0, rows: [] };
      const ors: string[] = [];
      if (match.stations.length) ors.push("t.station_pk IN (SELECT value FROM json_each(@stations))");
      if (match.drivers.length) ors.push("t.driver_pk IN (SELECT value FROM json_each(@drivers))");
      if (match.cards.length) ors.push("t.card_pk IN (SELECT value FROM json_each(@cards))");
      where.push(`(${ors.join(" OR ")})`);
      params.stations = JSON.stringify(match.stations);
      params.drivers = JSON.stringify(match.drivers);
      params.cards = JSON.stringify(match.cards);
    }
    const whereSql = where.join(" AND ");
    const total = (this.prepare(`SELECT COUNT(*) AS n FROM transactions t WHERE ${whereSql}`).get(params) as { n: number }).n;
    const offset = (page.page - 1) * page.limit;
    if (offset >= total) return { total, rows: [] };
    const pks = this.prepare(`SELECT t.pk FROM transactions t WHERE ${whereSql} ORDER BY t.at_utc DESC, t.pk DESC LIMIT @limit OFFSET @offset`)
      .pluck()
      .all({ ...params, limit: page.limit, offset }) as number[];
    const rows = this.prepare(`SELECT ${TX_COLUMNS} FROM transactions t ${TX_JOINS} WHERE t.pk IN (SELECT value FROM json_each(?)) ORDER BY t.at_utc DESC, t.pk DESC`).all(
      JSON.stringify(pks),
    ) as TransactionRow[];
    return { total, rows };
  }

  private searchDimensions(customerPk: number, search: string): { stations: number[]; drivers: number[]; cards: number[] } {
    const pattern = likePattern(search);
    return {
      stations: this.prepare("SELECT pk FROM stations WHERE name LIKE ? ESCAPE '\\'").pluck().all(pattern) as number[],
      drivers: this.prepare("SELECT pk FROM drivers WHERE customer_pk = ? AND name LIKE ? ESCAPE '\\'").pluck().all(customerPk, pattern) as number[],
      cards: this.prepare("SELECT pk FROM cards WHERE customer_pk = ? AND last4 LIKE ? ESCAPE '\\'").pluck().all(customerPk, pattern) as number[],
    };
  }

  transaction(customerPk: number, id: string): TransactionRow | undefined {
    return this.prepare(`SELECT ${TX_COLUMNS} FROM transactions t ${TX_JOINS} WHERE t.id = ? AND t.customer_pk = ?`).get(id, customerPk) as TransactionRow | undefined;
  }

  locationPage(filter: { brands?: readonly string[]; excludeBrands?: readonly string[]; state?: string; search?: string }, page: PageRequest): { total: number; rows: StationRow[] } {
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
      where.push("(name LIKE @pattern ESCAPE '\\' OR city LIKE @pattern ESCAPE '\\' OR loc_num LIKE @pattern ESCAPE '\\')");
      params.pattern = likePattern(filter.search);
    }
    const whereSql = where.join(" AND ");
    const total = (this.prepare(`SELECT COUNT(*) AS n FROM stations WHERE ${whereSql}`).get(params) as { n: number }).n;
    const rows = this.prepare(`SELECT * FROM stations WHERE ${whereSql} ORDER BY loc_num LIMIT @limit OFFSET @offset`).all({
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
