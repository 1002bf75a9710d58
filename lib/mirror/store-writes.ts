import { sql, type Transaction as KyselyTransaction } from "kysely";

import type { Transaction } from "@/lib/model";

import { markFillsDeleted, markFillsWritten } from "./comparisons";
import { applyLocalBlockDelta } from "./local-blocks";
import { applyLocalRollupDelta, LOCAL_ROLLUP_SOURCE_COLUMNS } from "./local-rollups";
import { applyRollupDelta, ROLLUP_SOURCE_COLUMNS } from "./rollups";
import { toRow } from "./rows";
import type { MirrorDatabase } from "./schema";
import type { MirrorDialect } from "./types";

/**
 * The writes of `mirror_transactions` (MirrorStore's upsert and delete): each batch reads the rows it replaces or
 * deletes, writes, and moves the rollups by the difference, inside the caller's transaction.
 */

type Trx = KyselyTransaction<MirrorDatabase>;

/** Upsert batches: 200 rows × 23 columns stays far below both stores' bound-parameter limits. */
const UPSERT_BATCH = 200;
const DELETE_BATCH = 500;

/**
 * PostgreSQL: one writer per customer at a time, until the transaction ends. Two app instances upserting the same id
 * at once would otherwise both read the old row, and both subtract it from the rollups. (SQLite has one writer.)
 */
export async function lockCustomerWrites(trx: Trx, dialect: MirrorDialect, customerId: string): Promise<void> {
  if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${customerId}))`.execute(trx);
}

/** What the rollups read of the customer's rows with these ids (those that exist). */
const rollupSources = (trx: Trx, customerId: string, ids: readonly string[]) =>
  trx
    .selectFrom("mirror_transactions")
    .select([...new Set([...ROLLUP_SOURCE_COLUMNS, ...LOCAL_ROLLUP_SOURCE_COLUMNS])])
    .where("customer_id", "=", customerId)
    .where("id", "in", ids)
    .execute();

export async function upsertRows(
  trx: Trx,
  dialect: MirrorDialect,
  customerId: string,
  items: readonly Transaction[],
  nowMs: number,
): Promise<void> {
  await lockCustomerWrites(trx, dialect, customerId);
  // The last of several rows with one id wins (as it would row by row), and the rollups count it once.
  const unique = [...new Map(items.map((t) => [t.id, t])).values()];
  for (let i = 0; i < unique.length; i += UPSERT_BATCH) {
    const rows = unique.slice(i, i + UPSERT_BATCH).map((t) => toRow(customerId, t, nowMs));
    const replaced = await rollupSources(
      trx,
      customerId,
      rows.map((r) => r.id),
    );
    await trx
      .insertInto("mirror_transactions")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["customer_id", "id"]).doUpdateSet((eb) => ({
          reference: eb.ref("excluded.reference"),
          at_ms: eb.ref("excluded.at_ms"),
          local_offset_min: eb.ref("excluded.local_offset_min"),
          status: eb.ref("excluded.status"),
          product: eb.ref("excluded.product"),
          gallons_milli: eb.ref("excluded.gallons_milli"),
          price_milli: eb.ref("excluded.price_milli"),
          amount_cents: eb.ref("excluded.amount_cents"),
          station_id: eb.ref("excluded.station_id"),
          station_name: eb.ref("excluded.station_name"),
          station_loc_num: eb.ref("excluded.station_loc_num"),
          station_city: eb.ref("excluded.station_city"),
          station_state: eb.ref("excluded.station_state"),
          driver_id: eb.ref("excluded.driver_id"),
          driver_name: eb.ref("excluded.driver_name"),
          truck_id: eb.ref("excluded.truck_id"),
          card_last4: eb.ref("excluded.card_last4"),
          def_gallons_milli: eb.ref("excluded.def_gallons_milli"),
          def_amount_cents: eb.ref("excluded.def_amount_cents"),
          def_category: eb.ref("excluded.def_category"),
          synced_at_ms: eb.ref("excluded.synced_at_ms"),
        })),
      )
      .execute();
    await applyRollupDelta(trx, customerId, replaced, rows);
    await applyLocalBlockDelta(trx, customerId, await applyLocalRollupDelta(trx, customerId, replaced, rows));
    await markFillsWritten(
      trx,
      customerId,
      rows.filter((r) => r.status === "completed"),
    );
    await markFillsDeleted(
      trx,
      customerId,
      rows.filter((r) => r.status !== "completed").map((r) => r.id),
    );
  }
}

export async function deleteRows(
  trx: Trx,
  dialect: MirrorDialect,
  customerId: string,
  ids: readonly string[],
): Promise<number> {
  await lockCustomerWrites(trx, dialect, customerId);
  let deleted = 0;
  for (let i = 0; i < ids.length; i += DELETE_BATCH) {
    const batch = ids.slice(i, i + DELETE_BATCH);
    const gone = await rollupSources(trx, customerId, batch);
    const result = await trx
      .deleteFrom("mirror_transactions")
      .where("customer_id", "=", customerId)
      .where("id", "in", batch)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    await applyRollupDelta(trx, customerId, gone, []);
    await applyLocalBlockDelta(trx, customerId, await applyLocalRollupDelta(trx, customerId, gone, []));
    await markFillsDeleted(trx, customerId, batch);
  }
  return deleted;
}
