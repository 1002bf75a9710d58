import { type Kysely, PostgresAdapter, sql, type Transaction as KyselyTransaction } from "kysely";

import type { MirrorDatabase } from "./schema";
import type { Db, MirrorDialect } from "./types";

/**
 * The stored per-fill savings comparison (issue 25 item 7's speed goal; computed in lib/insights/savings-stored): per
 * completed fill, why it was or was not compared and every figure it adds to, and per purchase-local date and kind
 * their sums, so GET /api/savings answers from a few hundred rows. The mirror only keeps it honest: every write that
 * could change a fill's comparison marks the fill `pending` (a counter, so a comparison computed from an older state
 * never clears a newer mark), and lib/insights/savings-stored computes the pending fills in the background. What marks a fill:
 * - the sync upserting or deleting its transaction (./store-writes.ts) — the row is kept, pending, so the refresh also
 *   rebuilds the date it was counted on;
 * - a catalog walk (./catalog.ts) whose observations reach the fill's instant (within the largest price window), or
 *   that changed the stations themselves (new, moved, another state: every fill);
 * - other parameters (radius, window) than those the comparisons were made with (the refresh marks every fill).
 */

/** PRICE_WINDOW_HOURS' largest value (lib/insights/savings-config): a walk's reach is judged with it, whatever is set. */
export const MAX_PRICE_WINDOW_MS = 168 * 3_600_000;

const MARK_BATCH = 500;

/**
 * PostgreSQL: one writer of the customer's comparisons at a time until the transaction ends — the sync's marks (after
 * its `customerId` lock), a catalog walk's (after its `catalog:` lock), a judged batch's write, a purge. Nobody takes
 * another lock after this one, so the order of locks is acyclic (no deadlock), and a batch's compare-and-clear of a
 * fill's counter never interleaves with a mark of it. Re-taking it within a transaction is free (advisory locks
 * stack). SQLite has one writer.
 */
export async function lockComparisons(db: Db, dialect: MirrorDialect | null, customerId: string): Promise<void> {
  const postgres = dialect === null ? db.getExecutor().adapter instanceof PostgresAdapter : dialect === "postgres";
  if (postgres) await sql`select pg_advisory_xact_lock(hashtext(${`comparisons:${customerId}`}))`.execute(db);
}

/** A stored comparison's `flags`: what it counts in (a fill may count with 0 gallons, adding 0 micro-dollars). */
export const FLAG = { aboveOwn: 1, saving: 2, aboveMedian: 4 } as const;

export async function createComparisonTables(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  const double = dialect === "postgres" ? "double precision" : "real";
  await db.schema
    .createTable("mirror_fill_comparisons")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("tx_id", "text", (c) => c.notNull())
    .addColumn("pending", "integer", (c) => c.notNull())
    .addColumn("at_ms", int8, (c) => c.notNull())
    // The date the fill is counted on in mirror_comparison_days ('' until first computed).
    .addColumn("local_date", "text", (c) => c.notNull())
    .addColumn("driver_id", "text", (c) => c.notNull())
    .addColumn("station_id", "text", (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("gallons_milli", int8, (c) => c.notNull())
    .addColumn("price_milli", "integer", (c) => c.notNull())
    .addColumn("own_checked", "integer")
    .addColumn("flags", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("above_own_micro", int8, (c) => c.notNull())
    .addColumn("saved_micro", int8, (c) => c.notNull())
    .addColumn("above_median_micro", int8, (c) => c.notNull())
    .addColumn("cheaper_id", "text")
    .addColumn("cheaper_price_milli", "integer")
    .addColumn("cheaper_miles", double)
    .addColumn("cheaper_apart_ms", int8)
    .addPrimaryKeyConstraint("mirror_fill_comparisons_pk", ["customer_id", "tx_id"])
    .execute();
  const indexes: [string, string[]][] = [
    ["mirror_cmp_pending", ["customer_id", "pending"]],
    ["mirror_cmp_at", ["customer_id", "at_ms"]],
    // A batch's dates summed again (lib/insights/savings-stored sumDates) read only those dates' fills.
    ["mirror_cmp_day", ["customer_id", "local_date", "kind"]],
    ["mirror_cmp_driver", ["customer_id", "driver_id", "local_date"]],
    ["mirror_cmp_station", ["customer_id", "station_id", "local_date"]],
    // The largest missed savings: read from the largest down until ten fall in the range.
    ["mirror_cmp_saved", ["customer_id", "saved_micro", "at_ms", "local_date"]],
  ];
  for (const [name, columns] of indexes)
    await db.schema.createIndex(name).ifNotExists().on("mirror_fill_comparisons").columns(columns).execute();
  await db.schema
    .createTable("mirror_comparison_days")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("local_date", "text", (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("gallons_milli", int8, (c) => c.notNull())
    .addColumn("own_checked", "integer", (c) => c.notNull())
    .addColumn("own_above", "integer", (c) => c.notNull())
    .addColumn("above_own_micro", int8, (c) => c.notNull())
    .addColumn("with_saving", "integer", (c) => c.notNull())
    .addColumn("saved_micro", int8, (c) => c.notNull())
    .addColumn("with_above_median", "integer", (c) => c.notNull())
    .addColumn("above_median_micro", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_comparison_days_pk", ["customer_id", "local_date", "kind"])
    .modifyEnd(dialect === "sqlite" ? sql`without rowid` : sql``)
    .execute();
  await db.schema
    .createTable("mirror_comparison_params")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    .addColumn("radius_miles", double, (c) => c.notNull())
    .addColumn("window_ms", int8, (c) => c.notNull())
    .execute();
  await enqueueCompletedFills(db);
}

/**
 * Every completed fill without a stored comparison, pending (computed by the background refresh): an existing mirror's
 * fills at the migration, and rows written around the store's writes (the bench's bulk fill).
 */
export async function enqueueCompletedFills(db: Kysely<unknown> | Kysely<MirrorDatabase>): Promise<void> {
  await sql`insert into mirror_fill_comparisons (customer_id, tx_id, pending, at_ms, local_date, driver_id, station_id,
      kind, gallons_milli, price_milli, above_own_micro, saved_micro, above_median_micro)
    select customer_id, id, 1, at_ms, '', driver_id, station_id, -1, 0, 0, 0, 0, 0
    from mirror_transactions where status = 'completed'
    on conflict do nothing`.execute(db);
}

/** The written transactions' fills (as ./rows.ts made them): each pending, its old date kept until recomputed. */
export async function markFillsWritten(
  trx: KyselyTransaction<MirrorDatabase>,
  customerId: string,
  rows: readonly { id: string; at_ms: number; driver_id: string; station_id: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await lockComparisons(trx, null, customerId);
  await trx
    .insertInto("mirror_fill_comparisons")
    .values(
      rows.map((r) => ({
        customer_id: customerId,
        tx_id: r.id,
        pending: 1,
        at_ms: r.at_ms,
        local_date: "",
        driver_id: r.driver_id,
        station_id: r.station_id,
        kind: -1,
        flags: 0,
        gallons_milli: 0,
        price_milli: 0,
        above_own_micro: 0,
        saved_micro: 0,
        above_median_micro: 0,
      })),
    )
    .onConflict((oc) =>
      oc.columns(["customer_id", "tx_id"]).doUpdateSet((eb) => ({
        pending: sql`mirror_fill_comparisons.pending + 1`,
        at_ms: eb.ref("excluded.at_ms"),
      })),
    )
    .execute();
}

/** The deleted transactions' fills: pending, so the refresh removes them and rebuilds their dates. */
export async function markFillsDeleted(db: Db, customerId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await lockComparisons(db, null, customerId);
  for (let i = 0; i < ids.length; i += MARK_BATCH)
    await db
      .updateTable("mirror_fill_comparisons")
      .set({ pending: sql`pending + 1` })
      .where("customer_id", "=", customerId)
      .where("tx_id", "in", ids.slice(i, i + MARK_BATCH))
      .execute();
}

/** Every fill of the customer whose instant lies in [fromMs, toMs] (both inclusive; no bounds: every fill). */
export async function markFillsBetween(db: Db, customerId: string, fromMs?: number, toMs?: number): Promise<void> {
  await lockComparisons(db, null, customerId);
  let q = db
    .updateTable("mirror_fill_comparisons")
    .set({ pending: sql`pending + 1` })
    .where("customer_id", "=", customerId);
  if (fromMs !== undefined) q = q.where("at_ms", ">=", fromMs);
  if (toMs !== undefined) q = q.where("at_ms", "<=", toMs);
  await q.execute();
}

export async function purgeComparisons(db: Db, customerId: string): Promise<void> {
  await lockComparisons(db, null, customerId);
  await db.deleteFrom("mirror_fill_comparisons").where("customer_id", "=", customerId).execute();
  await db.deleteFrom("mirror_comparison_days").where("customer_id", "=", customerId).execute();
  await db.deleteFrom("mirror_comparison_params").where("customer_id", "=", customerId).execute();
}
