import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import {
  averagePricePerGallon,
  fromMinorUnits,
  toMinorUnits,
  TRANSACTION_STATUSES,
  rankByAmount,
  type RankAccumulator,
  type RankedItem,
  type Transaction,
  type TransactionStatus,
  type TransactionSummary,
} from "@/lib/model";
import { exactInteger, fromRow } from "./rows";
import type { MirrorDatabase } from "./schema";
import type { InstantRange, MirrorStore, StatusCounts } from "./store";

/**
 * What the mirror answers: a filtered, sorted page; a summary over any range (daily series in a given time zone);
 * counts per status; the state × product grouping of a period. Every query names its customer first, which is also
 * the first column of every index. Sums are integers of minor units, read exactly (BigInt), formatted by lib/model.
 */

export interface MirrorFilter extends InstantRange {
  driverId?: string | undefined;
  cardLast4?: string | undefined;
  truckId?: string | undefined;
  stationId?: string | undefined;
  state?: string | undefined;
  product?: string | undefined;
  status?: TransactionStatus | undefined;
  /** Decimal strings ("12.50"), inclusive. */
  amountMin?: string | undefined;
  amountMax?: string | undefined;
  gallonsMin?: string | undefined;
  gallonsMax?: string | undefined;
  /** Case-insensitive substring of the station name, driver name, card last four or reference. */
  search?: string | undefined;
}

export const SORT_COLUMNS = {
  at: "at_ms",
  amount: "amount_cents",
  gallons: "gallons_milli",
  pricePerGallon: "price_milli",
  status: "status",
  product: "product",
  driver: "driver_name",
  station: "station_name",
  state: "station_state",
  card: "card_last4",
  truck: "truck_id",
  reference: "reference",
} as const;
export type SortColumn = keyof typeof SORT_COLUMNS;

export interface PageQuery {
  filter?: MirrorFilter;
  sort?: { column: SortColumn; direction: "asc" | "desc" };
  page?: number;
  limit?: number;
}

export interface MirrorPage {
  items: Transaction[];
  page: number;
  limit: number;
  total: number;
  pages: number;
}

type Eb = ExpressionBuilder<MirrorDatabase, "mirror_transactions">;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(eb: Eb, customerId: string, f: MirrorFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("customer_id", "=", customerId)];
  if (f.fromMs !== undefined) all.push(eb("at_ms", ">=", f.fromMs));
  if (f.toMs !== undefined) all.push(eb("at_ms", "<", f.toMs));
  if (f.driverId !== undefined) all.push(eb("driver_id", "=", f.driverId));
  if (f.cardLast4 !== undefined) all.push(eb("card_last4", "=", f.cardLast4));
  if (f.truckId !== undefined) all.push(eb("truck_id", "=", f.truckId));
  if (f.stationId !== undefined) all.push(eb("station_id", "=", f.stationId));
  if (f.state !== undefined) all.push(eb("station_state", "=", f.state));
  if (f.product !== undefined) all.push(eb("product", "=", f.product));
  if (f.status !== undefined) all.push(eb("status", "=", f.status));
  if (f.amountMin !== undefined) all.push(eb("amount_cents", ">=", Number(toMinorUnits(f.amountMin, 2))));
  if (f.amountMax !== undefined) all.push(eb("amount_cents", "<=", Number(toMinorUnits(f.amountMax, 2))));
  if (f.gallonsMin !== undefined) all.push(eb("gallons_milli", ">=", Number(toMinorUnits(f.gallonsMin, 3))));
  if (f.gallonsMax !== undefined) all.push(eb("gallons_milli", "<=", Number(toMinorUnits(f.gallonsMax, 3))));
  if (f.search !== undefined && f.search !== "") {
    const pattern = `%${escapeLike(f.search.toLowerCase())}%`;
    // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    const like = (column: "station_name" | "driver_name" | "card_last4" | "reference") =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    all.push(eb.or([like("station_name"), like("driver_name"), like("card_last4"), like("reference")]));
  }
  return eb.and(all);
}

/** One page of the customer's rows matching the filter, sorted by any column (then newest first, then id). */
export async function listPage(store: MirrorStore, customerId: string, query: PageQuery = {}): Promise<MirrorPage> {
  const filter = query.filter ?? {};
  const limit = Math.max(1, Math.min(query.limit ?? 50, 1000));
  const page = Math.max(1, query.page ?? 1);
  const sort = query.sort ?? { column: "at", direction: "desc" };
  const column = SORT_COLUMNS[sort.column];
  const countRow = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where((eb) => whereOf(eb, customerId, filter))
    .executeTakeFirstOrThrow();
  const total = Number(exactInteger(countRow.n));
  let q = store.db
    .selectFrom("mirror_transactions")
    .selectAll()
    .where((eb) => whereOf(eb, customerId, filter))
    .orderBy(column, sort.direction);
  if (column !== "at_ms") q = q.orderBy("at_ms", "desc");
  const rows = await q
    .orderBy("id")
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { items: rows.map(fromRow), page, limit, total, pages: Math.ceil(total / limit) };
}

/** Rows per status over a range of instants, with the page filters. */
export async function countsByStatus(
  store: MirrorStore,
  customerId: string,
  filter: MirrorFilter = {},
): Promise<StatusCounts> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => ["status", eb.fn.countAll().as("n")])
    .where((eb) => whereOf(eb, customerId, filter))
    .groupBy("status")
    .execute();
  const counts = Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const r of rows) if (r.status in counts) counts[r.status as TransactionStatus] = Number(exactInteger(r.n));
  return counts;
}

export interface StateProductRow {
  state: string;
  product: string;
  transactions: number;
  gallons: string;
  amount: string;
}

/** Spend (completed and pending) per station state × product over a range: the quarter's jurisdiction report. */
export async function stateProductTotals(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
): Promise<StateProductRow[]> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [
      "station_state",
      "product",
      eb.fn.countAll().as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
    ])
    .where((eb) => whereOf(eb, customerId, range))
    .where("status", "<>", "failed")
    .groupBy(["station_state", "product"])
    .orderBy("station_state")
    .orderBy("product")
    .execute();
  return rows.map((r) => ({
    state: r.station_state,
    product: r.product,
    transactions: Number(exactInteger(r.n)),
    gallons: fromMinorUnits(exactInteger(r.g), 3),
    amount: fromMinorUnits(exactInteger(r.a), 2),
  }));
}

/** Quarter hours: every UTC offset in use is a whole number of them, so any time zone's days are unions of them. */
const BUCKET_MS = 15 * 60_000;

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
function localDate(ms: number, formatter: Intl.DateTimeFormat): string {
  const parts = formatter.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

export interface SummaryQuery {
  fromMs: number;
  toMs: number;
  /** IANA time zone of the daily series, e.g. America/Chicago. */
  timeZone: string;
  top?: number;
}

type Acc = RankAccumulator;

const acc = (
  id: string,
  name: string,
  detail: string | null,
  r: { n: number | string | bigint; g: number | string | bigint | null; a: number | string | bigint | null },
): Acc => ({
  id,
  name,
  detail,
  transactions: Number(exactInteger(r.n)),
  gallons: exactInteger(r.g),
  amount: exactInteger(r.a),
});

const ranked = (accs: Acc[], n: number): RankedItem[] => rankByAmount(accs, n);

/**
 * Totals, a daily series in `timeZone` (every local day of [fromMs, toMs), zeros included) and the top drivers,
 * stations and products, over any range. Spend is completed and pending (failed is not spend), as the upstream's
 * totals_30d and the BFF's summary count it. The series groups quarter-hour buckets in SQL and maps each bucket to
 * its local day here, so the store needs no time-zone support.
 */
export async function summarize(
  store: MirrorStore,
  customerId: string,
  query: SummaryQuery,
): Promise<TransactionSummary> {
  const range = { fromMs: query.fromMs, toMs: query.toMs };
  const top = query.top ?? 5;
  const formatter = new Intl.DateTimeFormat("en-CA", {
    timeZone: query.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const spend = (eb: Eb) => eb.and([whereOf(eb, customerId, range), eb("status", "<>", "failed")]);
  // A literal, not a parameter: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
  const bucket = sql<number | string>`(at_ms / ${sql.lit(BUCKET_MS)})`;

  // Grouped by an expression rather than the bare column: SQLite would otherwise walk the driver or station index
  // (sorted by the group) and read every row from the table; the time index covers these columns and the range.
  const grouped = (column: "driver_id" | "station_id" | "product") => sql<string>`(${sql.ref(column)} || '')`;
  const groupBy = (column: "driver_id" | "station_id" | "product") =>
    store.db
      .selectFrom("mirror_transactions")
      .select((eb) => [
        grouped(column).as("key"),
        eb.fn.countAll().as("n"),
        eb.fn.sum("gallons_milli").as("g"),
        eb.fn.sum("amount_cents").as("a"),
      ])
      .where(spend)
      .groupBy(grouped(column))
      .execute();
  const [buckets, driverSums, stationSums, products, byStatus] = await Promise.all([
    store.db
      .selectFrom("mirror_transactions")
      .select((eb) => [
        bucket.as("b"),
        eb.fn.countAll().as("n"),
        eb.fn.sum("gallons_milli").as("g"),
        eb.fn.sum("amount_cents").as("a"),
      ])
      .where(spend)
      .groupBy(bucket)
      .execute(),
    groupBy("driver_id"),
    groupBy("station_id"),
    groupBy("product"),
    countsByStatus(store, customerId, range),
  ]);
  // Names only for the ranked few (the latest row's, in the range).
  const topDrivers = ranked(
    driverSums.map((r) => acc(r.key, r.key, null, r)),
    top,
  );
  const topStations = ranked(
    stationSums.map((r) => acc(r.key, r.key, null, r)),
    top,
  );
  const [drivers, stations] = await Promise.all([
    topDrivers.length === 0
      ? []
      : store.db
          .selectFrom("mirror_transactions")
          .select((eb) => ["driver_id", eb.fn.max("driver_name").as("name"), eb.fn.max("truck_id").as("truck")])
          .where((eb) =>
            eb.and([
              whereOf(eb, customerId, range),
              eb(
                "driver_id",
                "in",
                topDrivers.map((d) => d.id),
              ),
            ]),
          )
          .groupBy("driver_id")
          .execute(),
    topStations.length === 0
      ? []
      : store.db
          .selectFrom("mirror_transactions")
          .select((eb) => [
            "station_id",
            eb.fn.max("station_name").as("name"),
            eb.fn.max("station_city").as("city"),
            eb.fn.max("station_state").as("st"),
          ])
          .where((eb) =>
            eb.and([
              whereOf(eb, customerId, range),
              eb(
                "station_id",
                "in",
                topStations.map((d) => d.id),
              ),
            ]),
          )
          .groupBy("station_id")
          .execute(),
  ]);
  const driverNames = new Map(drivers.map((d) => [d.driver_id, d]));
  const stationNames = new Map(stations.map((st) => [st.station_id, st]));

  const days = new Map<string, { transactions: number; gallons: bigint; amount: bigint }>();
  // Every local day of the range: step by hours so a 23- or 25-hour day is neither skipped nor doubled.
  for (let t = query.fromMs; t < query.toMs; t += 3_600_000) {
    const date = localDate(t, formatter);
    if (!days.has(date)) days.set(date, { transactions: 0, gallons: 0n, amount: 0n });
  }
  if (query.toMs > query.fromMs) {
    const last = localDate(query.toMs - 1, formatter);
    if (!days.has(last)) days.set(last, { transactions: 0, gallons: 0n, amount: 0n });
  }
  let count = 0;
  let gallons = 0n;
  let amount = 0n;
  for (const b of buckets) {
    const n = Number(exactInteger(b.n));
    const g = exactInteger(b.g);
    const a = exactInteger(b.a);
    count += n;
    gallons += g;
    amount += a;
    const day = days.get(localDate(Number(b.b) * BUCKET_MS, formatter));
    if (day) {
      day.transactions += n;
      day.gallons += g;
      day.amount += a;
    }
  }
  return {
    from: new Date(query.fromMs).toISOString(),
    to: new Date(query.toMs).toISOString(),
    totals: {
      transactions: count,
      gallons: fromMinorUnits(gallons, 3),
      amount: fromMinorUnits(amount, 2),
      averagePricePerGallon: averagePricePerGallon(amount, gallons),
    },
    daily: [...days.entries()]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([date, d]) => ({
        date,
        transactions: d.transactions,
        gallons: fromMinorUnits(d.gallons, 3),
        amount: fromMinorUnits(d.amount, 2),
      })),
    topDrivers: topDrivers.map((d) => ({
      ...d,
      name: driverNames.get(d.id)?.name ?? d.id,
      detail: driverNames.get(d.id)?.truck ?? null,
    })),
    topStations: topStations.map((st) => {
      const named = stationNames.get(st.id);
      return { ...st, name: named?.name ?? st.id, detail: named ? `${named.city}, ${named.st}` : null };
    }),
    products: ranked(
      products.map((r) => acc(r.key, r.key, null, r)),
      10,
    ),
    byStatus,
  };
}
