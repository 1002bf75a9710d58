import { fromMinorUnits, type Transaction, TRANSACTION_STATUSES, type TransactionStatus } from "@/lib/model";

import { type MirrorFilter, whereOf } from "./filter";
import { groupSums, type SumSource } from "./rollup-reads";
import { exactInteger, fromRow } from "./rows";
import type { MirrorStore } from "./store";
import type { InstantRange, StatusCounts } from "./types";

/**
 * What the mirror answers: a filtered, sorted page; counts per status; the state × product grouping of a period (the
 * summary over any range is in ./summary). Every query names its customer first, which is also the first column of
 * every index. Sums are integers of minor units, read exactly (BigInt), formatted by lib/model.
 */

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

/**
 * Rows per status matching the filter (every status present, zeros included): the list's totals and export, and the
 * sync's verification (a range of instants only). Read from the rows, through the (customer_id, at_ms) index.
 */
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
  for (const r of rows)
    if (Object.hasOwn(counts, r.status)) counts[r.status as TransactionStatus] = Number(exactInteger(r.n));
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
export function stateProductTotals(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
): Promise<StateProductRow[]> {
  return stateProductTotalsFrom(store, customerId, range, "rollups");
}

/** The same grouping from the rollups where whole days fit (`stateProductTotals`) or from the rows alone. */
export async function stateProductTotalsFrom(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
  source: SumSource,
): Promise<StateProductRow[]> {
  const groups = await groupSums(store, customerId, "state_product", range, source);
  // Code-unit order, the same on both stores (a database's collation could order them otherwise).
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return groups
    .sort((x, y) => byText(x.key, y.key) || byText(x.key2, y.key2))
    .map((r) => ({
      state: r.key,
      product: r.key2,
      transactions: r.transactions,
      gallons: fromMinorUnits(r.gallons, 3),
      amount: fromMinorUnits(r.amount, 2),
    }));
}
