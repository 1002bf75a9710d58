import { type Kysely, sql } from "kysely";

import { purgeLocalBlocks } from "./local-blocks";
import { localMsOf, OFFSET_MARGIN_MS } from "./local-dates";
import { DAY_MS } from "./sync-days";
import type { Db, LocalDelta, LocalDimension } from "./types";

/**
 * The local-day rollup (issue 16's insight figures): per customer × purchase-local date × dimension (driver, truck,
 * card, station, state) × key × product (the raw name: fuel classes are decided in code, lib/model/product-classes)
 * × status, the count, gallons, amount, DEF gallons and amount, and the newest instant ("last purchase"). The other
 * rollups (./rollups.ts) are by UTC period and merge statuses and products, so they cannot answer a local-date report.
 *
 * Kept exact like them: every write of `mirror_transactions` (./store-writes.ts) hands the rows it replaces or
 * deletes (`minus`) and the new ones (`plus`) to `applyLocalRollupDelta` in the same transaction (under the PostgreSQL
 * advisory lock per customer). Sums move by the difference; a row whose count reaches zero is deleted. The newest
 * instant cannot be moved by a difference when a row leaves: those key-days (few — a delete, a status change, a moved
 * time) are recomputed from the rows, and only when the one that left could have been the newest.
 *
 * `local_day` is the local date as whole days since 1970-01-01 (floor of the local wall time / 1 day): an integer, the
 * same in SQL on both stores as in JS for dates after 1970.
 */

const LOCAL_DIMENSIONS: readonly LocalDimension[] = ["driver", "truck", "card", "station", "state"];

/** The columns of a transaction row this rollup reads. */
export interface LocalRollupSource {
  at_ms: number | string;
  // Optional: an Insertable row (what an upsert writes) may leave nullable columns out.
  local_offset_min?: number | null | undefined;
  status: string;
  product: string;
  gallons_milli: number;
  amount_cents: number;
  def_gallons_milli?: number | null | undefined;
  def_amount_cents?: number | null | undefined;
  driver_id: string;
  truck_id?: string | null | undefined;
  card_last4: string;
  station_id: string;
  station_state: string;
}

export const LOCAL_ROLLUP_SOURCE_COLUMNS = [
  "at_ms",
  "local_offset_min",
  "status",
  "product",
  "gallons_milli",
  "amount_cents",
  "def_gallons_milli",
  "def_amount_cents",
  "driver_id",
  "truck_id",
  "card_last4",
  "station_id",
  "station_state",
] as const;

/** The SQL of each dimension's key over `mirror_transactions` (a row without a truck has the key ''). */
const KEY_SQL: Readonly<Record<LocalDimension, string>> = {
  driver: "driver_id",
  truck: "coalesce(truck_id, '')",
  card: "card_last4",
  station: "station_id",
  state: "station_state",
};

const keyOf = (row: LocalRollupSource, dimension: LocalDimension): string => {
  switch (dimension) {
    case "driver":
      return row.driver_id;
    case "truck":
      return row.truck_id ?? "";
    case "card":
      return row.card_last4;
    case "station":
      return row.station_id;
    case "state":
      return row.station_state;
  }
};

/** The local date of an instant with its offset, as days since 1970-01-01. */
const localDayOf = (atMs: number, offsetMin: number | null): number => Math.floor(localMsOf(atMs, offsetMin) / DAY_MS);

/** The day number of a YYYY-MM-DD date. */
export const dayNumberOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

function deltasOf(minus: readonly LocalRollupSource[], plus: readonly LocalRollupSource[]): LocalDelta[] {
  const groups = new Map<string, LocalDelta>();
  const arrived = new Map<string, Set<number>>();
  const left = new Map<string, Set<number>>();
  const add = (row: LocalRollupSource, sign: 1 | -1) => {
    const atMs = Number(row.at_ms);
    const day = localDayOf(atMs, row.local_offset_min ?? null);
    for (const dimension of LOCAL_DIMENSIONS) {
      const key = keyOf(row, dimension);
      const id = JSON.stringify([dimension, day, key, row.product, row.status]);
      let d = groups.get(id);
      if (!d)
        groups.set(
          id,
          (d = {
            dimension,
            day,
            key,
            product: row.product,
            status: row.status,
            n: 0,
            g: 0,
            a: 0,
            dg: 0,
            da: 0,
            lastPlus: 0,
            gone: new Set(),
          }),
        );
      d.n += sign;
      d.g += sign * row.gallons_milli;
      d.a += sign * row.amount_cents;
      d.dg += sign * (row.def_gallons_milli ?? 0);
      d.da += sign * (row.def_amount_cents ?? 0);
      if (sign === 1) {
        d.lastPlus = Math.max(d.lastPlus, atMs);
        let s = arrived.get(id);
        if (!s) arrived.set(id, (s = new Set()));
        s.add(atMs);
      } else {
        d.gone.add(atMs);
        let s = left.get(id);
        if (!s) left.set(id, (s = new Set()));
        s.add(atMs);
      }
    }
  };
  for (const row of minus) add(row, -1);
  for (const row of plus) add(row, 1);
  // A row written again as it was (most of a head sync's upserts) changes nothing: no statement for it.
  const changed: LocalDelta[] = [];
  for (const [id, d] of groups) {
    const came = arrived.get(id) ?? new Set<number>();
    const went = left.get(id) ?? new Set<number>();
    for (const at of came) d.gone.delete(at);
    const newInstant = [...came].some((at) => !went.has(at));
    if (d.n !== 0 || d.g !== 0 || d.a !== 0 || d.dg !== 0 || d.da !== 0 || d.gone.size > 0 || newInstant)
      changed.push(d);
  }
  return changed;
}

/** Rows per statement: 12 values each stays far below both stores' bound-parameter limits. */
const CHUNK = 400;

/**
 * The newest instant of one group's purchases whose local date is in days [fromDay, toDay), from the rows (through the
 * key's index that ends with the time): what a group falls back to when its newest purchase left.
 */
function newestInstantSql(
  customerId: string,
  d: Pick<LocalDelta, "dimension" | "key" | "product" | "status">,
  fromDay: number,
  toDay: number,
) {
  const start = fromDay * DAY_MS;
  const end = toDay * DAY_MS;
  const keyWhere =
    d.dimension === "truck"
      ? d.key === ""
        ? sql`t.truck_id is null`
        : sql`t.truck_id = ${d.key}`
      : sql`${sql.ref(`t.${KEY_SQL[d.dimension]}`)} = ${d.key}`;
  return sql<number | string | null>`(
    select max(t.at_ms) from mirror_transactions t
    where t.customer_id = ${customerId} and ${keyWhere} and t.product = ${d.product} and t.status = ${d.status}
      and t.at_ms >= ${start - OFFSET_MARGIN_MS} and t.at_ms < ${end + OFFSET_MARGIN_MS}
      and t.at_ms + coalesce(t.local_offset_min, 0) * 60000 >= ${start}
      and t.at_ms + coalesce(t.local_offset_min, 0) * 60000 < ${end})`;
}

/**
 * Moves the customer's local-day rollup by `minus` → `plus`; must run in the transaction of the row writes. Answers
 * the changes it applied, for the blocks (./local-blocks.ts `applyLocalBlockDelta`, in the same transaction).
 */
export async function applyLocalRollupDelta(
  db: Db,
  customerId: string,
  minus: readonly LocalRollupSource[],
  plus: readonly LocalRollupSource[],
): Promise<readonly LocalDelta[]> {
  const deltas = deltasOf(minus, plus);
  for (let i = 0; i < deltas.length; i += CHUNK) {
    const chunk = deltas.slice(i, i + CHUNK);
    await db
      .insertInto("mirror_local_day_totals")
      .values(
        chunk.map((d) => ({
          customer_id: customerId,
          dimension: d.dimension,
          local_day: d.day,
          key: d.key,
          product: d.product,
          status: d.status,
          n: d.n,
          gallons_milli: d.g,
          amount_cents: d.a,
          def_gallons_milli: d.dg,
          def_amount_cents: d.da,
          last_at_ms: d.lastPlus,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["customer_id", "dimension", "local_day", "key", "product", "status"]).doUpdateSet({
          n: sql`mirror_local_day_totals.n + excluded.n`,
          gallons_milli: sql`mirror_local_day_totals.gallons_milli + excluded.gallons_milli`,
          amount_cents: sql`mirror_local_day_totals.amount_cents + excluded.amount_cents`,
          def_gallons_milli: sql`mirror_local_day_totals.def_gallons_milli + excluded.def_gallons_milli`,
          def_amount_cents: sql`mirror_local_day_totals.def_amount_cents + excluded.def_amount_cents`,
          // Portable max (SQLite's max(a, b) is PostgreSQL's greatest).
          last_at_ms: sql`case when excluded.last_at_ms > mirror_local_day_totals.last_at_ms
            then excluded.last_at_ms else mirror_local_day_totals.last_at_ms end`,
        }),
      )
      .execute();
  }
  // Rows that lost their last purchase are removed, as if they had never been.
  // Per dimension, so the delete walks the primary key (customer, dimension, local_day, …) of those days only.
  for (const dimension of LOCAL_DIMENSIONS) {
    const days = [...new Set(deltas.filter((d) => d.n < 0 && d.dimension === dimension).map((d) => d.day))];
    for (let i = 0; i < days.length; i += CHUNK)
      await db
        .deleteFrom("mirror_local_day_totals")
        .where("customer_id", "=", customerId)
        .where("dimension", "=", dimension)
        .where("local_day", "in", days.slice(i, i + CHUNK))
        .where("n", "=", 0)
        .execute();
  }
  // The newest instant of a key-day whose newest row may have left: recomputed from the rows, only if it was one of them.
  for (const d of deltas) {
    if (d.gone.size === 0) continue;
    await sql`update mirror_local_day_totals set last_at_ms = ${newestInstantSql(customerId, d, d.day, d.day + 1)}
      where customer_id = ${customerId} and dimension = ${d.dimension} and local_day = ${d.day} and key = ${d.key}
        and product = ${d.product} and status = ${d.status} and last_at_ms <= ${Math.max(...d.gone)}`.execute(db);
  }
  return deltas;
}

/** Deletes a customer's local-day rollup and its blocks (with its rows, in the caller's transaction). */
export async function purgeLocalRollups(db: Db, customerId: string): Promise<void> {
  await db.deleteFrom("mirror_local_day_totals").where("customer_id", "=", customerId).execute();
  await purgeLocalBlocks(db, customerId);
}

/**
 * Computes every customer's local-day rollup from the rows, replacing what was there: migration 0004 of an existing
 * mirror, the bench's bulk fill and the property test. Plain SQL that reads the same on both stores.
 */
export async function rebuildLocalRollups(db: Kysely<unknown> | Db): Promise<void> {
  const day = sql.raw(`(at_ms + coalesce(local_offset_min, 0) * 60000) / ${String(DAY_MS)}`);
  await sql`delete from mirror_local_day_totals`.execute(db);
  for (const dimension of LOCAL_DIMENSIONS) {
    const key = sql.raw(KEY_SQL[dimension]);
    await sql`insert into mirror_local_day_totals
        (customer_id, dimension, local_day, key, product, status, n, gallons_milli, amount_cents,
         def_gallons_milli, def_amount_cents, last_at_ms)
      select customer_id, ${sql.lit(dimension)}, ${day}, ${key}, product, status, count(*), sum(gallons_milli),
        sum(amount_cents), sum(coalesce(def_gallons_milli, 0)), sum(coalesce(def_amount_cents, 0)), max(at_ms)
      from mirror_transactions
      group by customer_id, ${day}, ${key}, product, status`.execute(db);
  }
}
