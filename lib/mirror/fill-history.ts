import { type Kysely, sql } from "kysely";

import { type LocalDays, localDayWhere } from "./local-dates";
import type { MirrorDialect, StoreHandle } from "./types";

/**
 * The fills the exception rules' "usual" compares with (lib/insights/exceptions/rules-usual): per truck and product,
 * the gallons of every fill (failed attempts and fills with no truck left out) over some local dates. A quarter's
 * history is 240,000 fills at 1,000,000 rows, and one row per fill cost more than the rules that read them (issue 25
 * item 7), so each truck and product is one row, its gallons one comma-separated text — the string aggregate, the one
 * read here that is written per dialect — from migration 0008's index alone.
 */

/** Truck id → product name → the gallons (thousandths) of its fills, in no particular order. */
export type FillHistory = Map<string, Map<string, number[]>>;

/** Migration 0008: every column of the read below, after the period's window, so it reads the index alone. */
export async function createFillHistoryIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("mirror_tx_fill_history")
    .ifNotExists()
    .on("mirror_transactions")
    .columns(["customer_id", "at_ms", "local_offset_min", "status", "truck_id", "product", "gallons_milli"])
    .execute();
}

const gallonsList = (dialect: MirrorDialect) =>
  dialect === "postgres"
    ? sql<string>`string_agg(cast(gallons_milli as text), ',')`
    : sql<string>`group_concat(gallons_milli, ',')`;

export async function readFillHistory(store: StoreHandle, customerId: string, days: LocalDays): Promise<FillHistory> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select(["truck_id", "product", gallonsList(store.dialect).as("gallons")])
    .where((eb) =>
      eb.and([
        eb("customer_id", "=", customerId),
        localDayWhere(eb, days),
        eb("truck_id", "is not", null),
        eb("status", "!=", "failed"),
      ]),
    )
    .groupBy(["truck_id", "product"])
    .execute();
  const byTruck: FillHistory = new Map();
  for (const r of rows) {
    if (r.truck_id === null) continue;
    let products = byTruck.get(r.truck_id);
    if (products === undefined) byTruck.set(r.truck_id, (products = new Map<string, number[]>()));
    products.set(r.product, r.gallons.split(",").map(Number));
  }
  return byTruck;
}
