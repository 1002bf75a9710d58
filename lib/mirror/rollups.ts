import { type Kysely, sql } from "kysely";

import { DAY_MS } from "./sync-days";
import type { Db } from "./types";

/**
 * The rollups: per customer, sums per quarter hour (spend and counts per status) and spend per driver, station,
 * product and state × product per UTC day and per 16-day block. They are kept exact by deltas: every write of
 * `mirror_transactions` (store.ts) reads the rows it replaces or deletes, and in the same transaction subtracts them and
 * adds the new ones; a rollup row whose count reaches zero is deleted. `rebuildRollups` computes the same tables from
 * the rows in SQL (the migration of an existing mirror, the bench's bulk fill); the property test checks that answers
 * from rollups equal answers from the rows after random writes, on both stores.
 *
 * Periods are integer divisions of `at_ms`, the same on both stores and in JS for instants after 1970 (SQL truncates
 * toward zero, Math.floor rounds down; they agree for non-negative values).
 */

/** Quarter hours: every UTC offset in use is a whole number of them, so any time zone's days are unions of them. */
export const BUCKET_MS = 15 * 60_000;
/**
 * The periods of the groupings, in UTC days, finest first. A range takes the largest whole periods that fit and the
 * next finer ones at its ends: a year is 1–2 periods of 128 days, up to 7 of 16 at each end, up to 3 of 4, up to 3
 * days — about 40,000 rows for 2,500 stations instead of 75,000 with days and 16-day periods only.
 */
export const SPANS = [1, 4, 16, 128] as const;

const DIMENSIONS = ["driver", "station", "product", "state_product"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The columns of a transaction row the rollups read. */
export interface RollupSource {
  at_ms: number | string;
  status: string;
  product: string;
  gallons_milli: number;
  amount_cents: number;
  station_id: string;
  station_state: string;
  driver_id: string;
}

export const ROLLUP_SOURCE_COLUMNS = [
  "at_ms",
  "status",
  "product",
  "gallons_milli",
  "amount_cents",
  "station_id",
  "station_state",
  "driver_id",
] as const;

const keyOf = (row: RollupSource, dimension: Dimension): [string, string] => {
  switch (dimension) {
    case "driver":
      return [row.driver_id, ""];
    case "station":
      return [row.station_id, ""];
    case "product":
      return [row.product, ""];
    case "state_product":
      return [row.station_state, row.product];
  }
};

interface BucketDelta {
  bucket: number;
  spendN: number;
  spendG: number;
  spendA: number;
  completed: number;
  pending: number;
  failed: number;
}

interface GroupDelta {
  dimension: Dimension;
  span: number;
  period: number;
  key: string;
  key2: string;
  n: number;
  g: number;
  a: number;
}

/** Per-key sums of the changes: `minus` rows leave, `plus` rows arrive. Sums stay exact (integers far below 2^53). */
function deltasOf(minus: readonly RollupSource[], plus: readonly RollupSource[]) {
  const buckets = new Map<number, BucketDelta>();
  const groups = new Map<string, GroupDelta>();
  const add = (row: RollupSource, sign: 1 | -1) => {
    const atMs = Number(row.at_ms);
    const bucket = Math.floor(atMs / BUCKET_MS);
    let b = buckets.get(bucket);
    if (!b) buckets.set(bucket, (b = { bucket, spendN: 0, spendG: 0, spendA: 0, completed: 0, pending: 0, failed: 0 }));
    if (row.status === "completed") b.completed += sign;
    else if (row.status === "pending") b.pending += sign;
    else if (row.status === "failed") b.failed += sign;
    if (row.status === "failed") return;
    b.spendN += sign;
    b.spendG += sign * row.gallons_milli;
    b.spendA += sign * row.amount_cents;
    for (const span of SPANS) {
      const period = Math.floor(atMs / (span * DAY_MS));
      for (const dimension of DIMENSIONS) {
        const [key, key2] = keyOf(row, dimension);
        const id = JSON.stringify([dimension, span, period, key, key2]);
        let g = groups.get(id);
        if (!g) groups.set(id, (g = { dimension, span, period, key, key2, n: 0, g: 0, a: 0 }));
        g.n += sign;
        g.g += sign * row.gallons_milli;
        g.a += sign * row.amount_cents;
      }
    }
  };
  for (const row of minus) add(row, -1);
  for (const row of plus) add(row, 1);
  return {
    buckets: [...buckets.values()].filter(
      (b) =>
        b.spendN !== 0 || b.spendG !== 0 || b.spendA !== 0 || b.completed !== 0 || b.pending !== 0 || b.failed !== 0,
    ),
    groups: [...groups.values()].filter((g) => g.n !== 0 || g.g !== 0 || g.a !== 0),
  };
}

/** Rows per statement: 9 values each stays far below both stores' bound-parameter limits. */
const CHUNK = 500;

/** Adds the deltas of `minus` → `plus` to the customer's rollups; must run in the transaction of the row writes. */
export async function applyRollupDelta(
  db: Db,
  customerId: string,
  minus: readonly RollupSource[],
  plus: readonly RollupSource[],
): Promise<void> {
  const { buckets, groups } = deltasOf(minus, plus);
  for (let i = 0; i < buckets.length; i += CHUNK) {
    const chunk = buckets.slice(i, i + CHUNK);
    await db
      .insertInto("mirror_bucket_totals")
      .values(
        chunk.map((b) => ({
          customer_id: customerId,
          bucket: b.bucket,
          spend_n: b.spendN,
          spend_gallons_milli: b.spendG,
          spend_amount_cents: b.spendA,
          completed: b.completed,
          pending: b.pending,
          failed: b.failed,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["customer_id", "bucket"]).doUpdateSet({
          spend_n: sql`mirror_bucket_totals.spend_n + excluded.spend_n`,
          spend_gallons_milli: sql`mirror_bucket_totals.spend_gallons_milli + excluded.spend_gallons_milli`,
          spend_amount_cents: sql`mirror_bucket_totals.spend_amount_cents + excluded.spend_amount_cents`,
          completed: sql`mirror_bucket_totals.completed + excluded.completed`,
          pending: sql`mirror_bucket_totals.pending + excluded.pending`,
          failed: sql`mirror_bucket_totals.failed + excluded.failed`,
        }),
      )
      .execute();
    // A bucket without rows (every row counts as spend or failed) is removed, as if it had never been.
    await db
      .deleteFrom("mirror_bucket_totals")
      .where("customer_id", "=", customerId)
      .where(
        "bucket",
        "in",
        chunk.map((b) => b.bucket),
      )
      .where("spend_n", "=", 0)
      .where("failed", "=", 0)
      .execute();
  }
  for (let i = 0; i < groups.length; i += CHUNK) {
    const chunk = groups.slice(i, i + CHUNK);
    await db
      .insertInto("mirror_group_totals")
      .values(
        chunk.map((g) => ({
          customer_id: customerId,
          dimension: g.dimension,
          span_days: g.span,
          period: g.period,
          key: g.key,
          key2: g.key2,
          n: g.n,
          gallons_milli: g.g,
          amount_cents: g.a,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["customer_id", "dimension", "span_days", "period", "key", "key2"]).doUpdateSet({
          n: sql`mirror_group_totals.n + excluded.n`,
          gallons_milli: sql`mirror_group_totals.gallons_milli + excluded.gallons_milli`,
          amount_cents: sql`mirror_group_totals.amount_cents + excluded.amount_cents`,
        }),
      )
      .execute();
  }
  await dropEmptyGroups(db, customerId, groups);
}

/** Deletes the touched group rows whose count reached zero (their sums are then zero too). */
async function dropEmptyGroups(db: Db, customerId: string, groups: readonly GroupDelta[]): Promise<void> {
  const touched = new Map<string, { dimension: Dimension; span: number; periods: Set<number> }>();
  for (const g of groups) {
    if (g.n >= 0) continue; // only a removal can empty a row
    const id = `${g.dimension}/${String(g.span)}`;
    let t = touched.get(id);
    if (!t) touched.set(id, (t = { dimension: g.dimension, span: g.span, periods: new Set() }));
    t.periods.add(g.period);
  }
  for (const t of touched.values()) {
    const periods = [...t.periods];
    for (let i = 0; i < periods.length; i += CHUNK)
      await db
        .deleteFrom("mirror_group_totals")
        .where("customer_id", "=", customerId)
        .where("dimension", "=", t.dimension)
        .where("span_days", "=", t.span)
        .where("period", "in", periods.slice(i, i + CHUNK))
        .where("n", "=", 0)
        .execute();
  }
}

/** Deletes a customer's rollups (with its rows, in the caller's transaction). */
export async function purgeRollups(db: Db, customerId: string): Promise<void> {
  await db.deleteFrom("mirror_bucket_totals").where("customer_id", "=", customerId).execute();
  await db.deleteFrom("mirror_group_totals").where("customer_id", "=", customerId).execute();
}

const GROUP_KEYS: Readonly<Record<Dimension, readonly [string, string]>> = {
  driver: ["driver_id", "''"],
  station: ["station_id", "''"],
  product: ["product", "''"],
  state_product: ["station_state", "product"],
};

/**
 * Computes every customer's rollups from the rows, replacing what was there: the migration of an existing mirror and
 * the bench's bulk fill (which writes rows without deltas). Plain SQL that reads the same on both stores; constants
 * are literals because PostgreSQL matches a GROUP BY expression to the selected one only when the text is the same.
 */
export async function rebuildRollups(db: Kysely<unknown> | Db): Promise<void> {
  const bucket = sql.raw(`at_ms / ${String(BUCKET_MS)}`);
  await sql`delete from mirror_bucket_totals`.execute(db);
  await sql`delete from mirror_group_totals`.execute(db);
  await sql`insert into mirror_bucket_totals
      (customer_id, bucket, spend_n, spend_gallons_milli, spend_amount_cents, completed, pending, failed)
    select customer_id, ${bucket},
      sum(case when status <> 'failed' then 1 else 0 end),
      sum(case when status <> 'failed' then gallons_milli else 0 end),
      sum(case when status <> 'failed' then amount_cents else 0 end),
      sum(case when status = 'completed' then 1 else 0 end),
      sum(case when status = 'pending' then 1 else 0 end),
      sum(case when status = 'failed' then 1 else 0 end)
    from mirror_transactions group by customer_id, ${bucket}`.execute(db);
  for (const span of SPANS) {
    const period = sql.raw(`at_ms / ${String(span * DAY_MS)}`);
    for (const dimension of DIMENSIONS) {
      const [key, key2] = GROUP_KEYS[dimension];
      // PostgreSQL refuses a string constant in GROUP BY: only real columns are grouped.
      const groupBy = key2 === "''" ? sql.raw(key) : sql.raw(`${key}, ${key2}`);
      await sql`insert into mirror_group_totals
          (customer_id, dimension, span_days, period, key, key2, n, gallons_milli, amount_cents)
        select customer_id, ${sql.lit(dimension)}, ${sql.lit(span)}, ${period}, ${sql.raw(key)}, ${sql.raw(key2)},
          count(*), sum(gallons_milli), sum(amount_cents)
        from mirror_transactions where status <> 'failed'
        group by customer_id, ${period}, ${groupBy}`.execute(db);
    }
  }
}
