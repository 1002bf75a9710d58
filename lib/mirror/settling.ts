import { sql } from "kysely";

import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";
import type { LocalDateRange } from "@/lib/model/insights";
import { NOT_SETTLING, type Settling } from "@/lib/model/metrics";

import { dayNumberOf } from "./local-rollups";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";

/**
 * How much of a range of purchase-local dates is still settling: its pending purchases and the local dates holding
 * them (lib/model/metrics `Settling`). Read from the local-day rollup (./local-rollups.ts: per customer × local day ×
 * dimension × key × product × status, kept exact in every write's transaction) through the index of its pending rows,
 * so a ten-year range costs its pending rows, not a scan of its purchases. The whole fleet's figure reads the driver dimension (every purchase has one).
 */

/**
 * The day rows of pending purchases of the dimension on the range's local dates, through the index of the pending rows
 * alone (migration 0007; the status a literal, so both stores see the index's condition in the query).
 */
const pendingRows = (store: MirrorStore, customerId: string, dimension: DrilldownDimension, range: LocalDateRange) =>
  store.db
    .selectFrom("mirror_local_day_totals")
    .where("customer_id", "=", customerId)
    .where("dimension", "=", dimension)
    .where("local_day", ">=", dayNumberOf(range.from))
    .where("local_day", "<=", dayNumberOf(range.to))
    .where(sql.ref("status"), "=", sql.lit("pending"));

const settlingOfRow = (r: { n: number | string | null; d: number | string | null }): Settling => ({
  purchases: Number(exactInteger(r.n)),
  days: Number(exactInteger(r.d)),
});

/** The range's pending purchases and their days; one key's when `only` is given. */
export async function settlingOf(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange | null,
  only?: { dimension: DrilldownDimension; key: string },
): Promise<Settling> {
  if (range === null) return NOT_SETTLING;
  let query = pendingRows(store, customerId, only?.dimension ?? "driver", range);
  if (only !== undefined) query = query.where("key", "=", only.key);
  const row = await query
    .select([sql<number | string | null>`sum(n)`.as("n"), sql<number | string>`count(distinct local_day)`.as("d")])
    .executeTakeFirstOrThrow();
  return settlingOfRow(row);
}

/** The same per key of a dimension (only keys with pending purchases are in the map): a list's change cells. */
export async function settlingByKey(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange | null,
): Promise<Map<string, Settling>> {
  if (range === null) return new Map();
  const rows = await pendingRows(store, customerId, dimension, range)
    .select([
      "key",
      sql<number | string | null>`sum(n)`.as("n"),
      sql<number | string>`count(distinct local_day)`.as("d"),
    ])
    .groupBy("key")
    .execute();
  // A truck '' is no truck (as the rollup keeps it): no row of the list has that key.
  return new Map(rows.filter((r) => r.key !== "").map((r) => [r.key, settlingOfRow(r)] as const));
}
