import { type Kysely, sql } from "kysely";

import { withPurchaseSums } from "./sum-columns";
import { DAY_MS } from "./sync-days";
import type { Db, LocalDelta, MirrorDialect } from "./types";

/**
 * The local-day rollup's blocks (migration 0007): the same sums as `mirror_local_day_totals` (./local-rollups.ts) per
 * customer × dimension × key × product × status, over aligned blocks of 4, 16 and 128 local days (block = local_day
 * divided by its length). A range of local dates reads the largest whole blocks that fit and finer ones at its ends,
 * down to days: 366 days are 1–2 blocks of 128, up to 7 of 16 and 3 of 4 at each end and up to 3 days, so a ranking
 * of 200 drivers over a year sums about 40,000 rollup rows instead of 366,000 (the UTC rollups' plan, ./rollups.ts).
 *
 * Kept exact as the day rows are: `applyLocalBlockDelta` adds the day deltas of the same write to their blocks, in the
 * same transaction, after the day rows moved; a block row whose count reaches zero is deleted; a block whose newest
 * purchase may have left takes the newest of its day rows (read through the day table's key index, not the purchases).
 * The newest purchase is kept packed with its local date (`packLast`): the figures show both.
 */

/** Block lengths in local days, largest first (./local-rollups's days are the finest). */
export const BLOCK_SPANS = [128, 16, 4] as const;

/**
 * A purchase's instant and local date as one integer (instant × 4 + its local day − its UTC day + 1, which is 0, 1 or
 * 2): drilldowns-figures' ROLLUP_LAST_PURCHASE of a day row, so a block's max() is the newest purchase with its local
 * date. 0 stands for none.
 */
const packLast = (atMs: number, day: number): number =>
  atMs === 0 ? 0 : atMs * 4 + (day - Math.floor(atMs / DAY_MS)) + 1;

/** The same in SQL over day rows (last_at_ms ≥ 0: integer division is the floor on both stores). */
export const PACKED_DAY_LAST = sql<
  number | string
>`(last_at_ms * 4 + (local_day - last_at_ms / ${sql.lit(DAY_MS)}) + 1)`;

interface BlockDelta extends Omit<LocalDelta, "day" | "gone" | "lastPlus"> {
  span: number;
  block: number;
  /** packLast of the newest arriving purchase (0: none arrived). */
  lastPlus: number;
  /** packLast of the newest purchase that left (0: none left). */
  goneMax: number;
}

function blockDeltasOf(deltas: readonly LocalDelta[]): BlockDelta[] {
  const blocks = new Map<string, BlockDelta>();
  for (const d of deltas)
    for (const span of BLOCK_SPANS) {
      const block = Math.floor(d.day / span);
      const id = JSON.stringify([d.dimension, span, block, d.key, d.product, d.status]);
      const goneMax = d.gone.size === 0 ? 0 : packLast(Math.max(...d.gone), d.day);
      const lastPlus = packLast(d.lastPlus, d.day);
      const b = blocks.get(id);
      if (b === undefined) {
        blocks.set(id, {
          dimension: d.dimension,
          key: d.key,
          product: d.product,
          status: d.status,
          n: d.n,
          g: d.g,
          a: d.a,
          dg: d.dg,
          da: d.da,
          lastPlus,
          span,
          block,
          goneMax,
        });
        continue;
      }
      b.n += d.n;
      b.g += d.g;
      b.a += d.a;
      b.dg += d.dg;
      b.da += d.da;
      b.lastPlus = Math.max(b.lastPlus, lastPlus);
      b.goneMax = Math.max(b.goneMax, goneMax);
    }
  return [...blocks.values()];
}

/** Rows per statement: 13 values each stays far below both stores' bound-parameter limits. */
const CHUNK = 400;

/**
 * Moves the customer's blocks by the day deltas `applyLocalRollupDelta` just applied (same transaction, after it: the
 * day rows are already exact when a block's newest instant is read back from them).
 */
export async function applyLocalBlockDelta(db: Db, customerId: string, deltas: readonly LocalDelta[]): Promise<void> {
  const blocks = blockDeltasOf(deltas);
  for (let i = 0; i < blocks.length; i += CHUNK)
    await db
      .insertInto("mirror_local_block_totals")
      .values(
        blocks.slice(i, i + CHUNK).map((b) => ({
          customer_id: customerId,
          dimension: b.dimension,
          span_days: b.span,
          block: b.block,
          key: b.key,
          product: b.product,
          status: b.status,
          n: b.n,
          gallons_milli: b.g,
          amount_cents: b.a,
          def_gallons_milli: b.dg,
          def_amount_cents: b.da,
          last_packed: b.lastPlus,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["customer_id", "dimension", "span_days", "block", "key", "product", "status"]).doUpdateSet({
          n: sql`mirror_local_block_totals.n + excluded.n`,
          gallons_milli: sql`mirror_local_block_totals.gallons_milli + excluded.gallons_milli`,
          amount_cents: sql`mirror_local_block_totals.amount_cents + excluded.amount_cents`,
          def_gallons_milli: sql`mirror_local_block_totals.def_gallons_milli + excluded.def_gallons_milli`,
          def_amount_cents: sql`mirror_local_block_totals.def_amount_cents + excluded.def_amount_cents`,
          last_packed: sql`case when excluded.last_packed > mirror_local_block_totals.last_packed
            then excluded.last_packed else mirror_local_block_totals.last_packed end`,
        }),
      )
      .execute();
  // Rows that lost their last purchase are removed, per dimension and span (the primary key's order).
  const emptied = new Map<string, Set<number>>();
  for (const b of blocks) {
    if (b.n >= 0) continue;
    const id = JSON.stringify([b.dimension, b.span]);
    emptied.set(id, (emptied.get(id) ?? new Set()).add(b.block));
  }
  for (const [id, set] of emptied) {
    const [dimension, span] = JSON.parse(id) as [string, number];
    const all = [...set];
    for (let i = 0; i < all.length; i += CHUNK)
      await db
        .deleteFrom("mirror_local_block_totals")
        .where("customer_id", "=", customerId)
        .where("dimension", "=", dimension)
        .where("span_days", "=", span)
        .where("block", "in", all.slice(i, i + CHUNK))
        .where("n", "=", 0)
        .execute();
  }
  for (const b of blocks) {
    if (b.goneMax === 0) continue;
    // The newest of the block's day rows (exact by now), only when the one that left could have been the newest.
    await sql`update mirror_local_block_totals set last_packed = (
        select max(${PACKED_DAY_LAST}) from mirror_local_day_totals d
        where d.customer_id = ${customerId} and d.dimension = ${b.dimension} and d.key = ${b.key}
          and d.local_day >= ${b.block * b.span} and d.local_day < ${(b.block + 1) * b.span}
          and d.product = ${b.product} and d.status = ${b.status})
      where customer_id = ${customerId} and dimension = ${b.dimension} and span_days = ${b.span}
        and block = ${b.block} and key = ${b.key} and product = ${b.product} and status = ${b.status}
        and last_packed <= ${b.goneMax}`.execute(db);
  }
}

/**
 * Migration 0007's table and two indexes of the day rows: by key (one key's days) and of the pending rows (settling).
 * Both stores; SQLite keeps the table in its key's order.
 */
export async function createLocalBlockTable(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  await withPurchaseSums(
    db.schema
      .createTable("mirror_local_block_totals")
      .ifNotExists()
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("dimension", "text", (c) => c.notNull())
      .addColumn("span_days", "integer", (c) => c.notNull())
      .addColumn("block", "integer", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("product", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull()),
    int8,
  )
    .addColumn("last_packed", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_local_block_totals_pk", [
      "customer_id",
      "dimension",
      "span_days",
      "block",
      "key",
      "product",
      "status",
    ])
    .modifyEnd(dialect === "sqlite" ? sql`without rowid` : sql``)
    .execute();
  // One key's days (a key's page, a block's newest purchase after its newest left): its own rows, not every key's.
  await db.schema
    .createIndex("mirror_local_day_key")
    .ifNotExists()
    .on("mirror_local_day_totals")
    .columns(["customer_id", "dimension", "key", "local_day"])
    .execute();
  // The pending rows alone (the settling figures of a range: ./settling.ts), with their count: a few rows per day.
  await db.schema
    .createIndex("mirror_local_day_pending")
    .ifNotExists()
    .on("mirror_local_day_totals")
    .columns(["customer_id", "dimension", "local_day", "key", "n"])
    .where(sql.ref("status"), "=", sql.lit("pending"))
    .execute();
}

/** Deletes a customer's blocks (in the caller's transaction, with its rows). */
export async function purgeLocalBlocks(db: Db, customerId: string): Promise<void> {
  await db.deleteFrom("mirror_local_block_totals").where("customer_id", "=", customerId).execute();
}

/**
 * Computes every customer's blocks from the day rows, replacing what was there: migration 0007 of an existing mirror,
 * the bench's bulk fill and the property test. Plain SQL that reads the same on both stores (local_day ≥ 0: integer
 * division is the floor).
 */
export async function rebuildLocalBlocks(db: Kysely<unknown> | Db): Promise<void> {
  await sql`delete from mirror_local_block_totals`.execute(db);
  for (const span of BLOCK_SPANS)
    await sql`insert into mirror_local_block_totals
        (customer_id, dimension, span_days, block, key, product, status, n, gallons_milli, amount_cents,
         def_gallons_milli, def_amount_cents, last_packed)
      select customer_id, dimension, ${sql.lit(span)}, local_day / ${sql.lit(span)}, key, product, status, sum(n),
        sum(gallons_milli), sum(amount_cents), sum(def_gallons_milli), sum(def_amount_cents), max(${PACKED_DAY_LAST})
      from mirror_local_day_totals
      group by customer_id, dimension, local_day / ${sql.lit(span)}, key, product, status`.execute(db);
}

/** A part of a range of local days: whole blocks [from, to) of `span` days, or days [from, to) when span is 1. */
interface LocalDayPart {
  span: number;
  from: number;
  to: number;
}

/** Whole blocks of the largest span that fit in days [d0, d1), then finer ones at both ends, down to days. */
export function planLocalDays(d0: number, d1: number, spans: readonly number[] = BLOCK_SPANS): LocalDayPart[] {
  if (d0 >= d1) return [];
  const [span, ...finer] = spans;
  if (span === undefined) return [{ span: 1, from: d0, to: d1 }];
  const b0 = Math.ceil(d0 / span);
  const b1 = Math.floor(d1 / span);
  if (b0 >= b1) return planLocalDays(d0, d1, finer);
  return [...planLocalDays(d0, b0 * span, finer), { span, from: b0, to: b1 }, ...planLocalDays(b1 * span, d1, finer)];
}
