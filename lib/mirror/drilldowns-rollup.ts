import { sql } from "kysely";

import type { DrilldownDimension, LocalDateRange } from "@/lib/model/insight-drilldowns";
import { statusesOf, type StatusSet } from "@/lib/model/metrics";

import { foldProducts, type GroupRow, ROLLUP_LAST_PURCHASE } from "./drilldowns-figures";
import { dayNumberOf } from "./local-rollups";
import type { MirrorStore } from "./store";

/**
 * The drill-downs' sums read from the local-day rollup (./local-rollups.ts: per customer × local date × dimension ×
 * key × product × status, kept exact in every write's transaction): a few rows per key-day instead of every purchase
 * of the range. lib/mirror/drilldowns reads the rows for what no rollup holds (a key's breakdown by another dimension)
 * and as the property test's reference.
 */

/** A key as the figures know it: the rollup's '' truck (a purchase without one) is the rows' null. */
const keyOfRollup = (dimension: DrilldownDimension, key: string): string | null =>
  dimension === "truck" && key === "" ? null : key;

/** The local-day rollup's rows of the customer's dimension on the range's local days, of one status set. */
export function rollupRows(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange,
  statuses: StatusSet,
) {
  return store.db
    .selectFrom("mirror_local_day_totals")
    .where("customer_id", "=", customerId)
    .where("dimension", "=", dimension)
    .where("local_day", ">=", dayNumberOf(range.from))
    .where("local_day", "<=", dayNumberOf(range.to))
    .where("status", "in", [...statusesOf(statuses)]);
}

/**
 * The rollup's spend sums of the dimension over the range, per `by` (the key, or the local day of one key) × product
 * (the product's class is decided in code: foldProducts).
 */
function rollupSums(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange,
  by: "key" | "local_day",
  key?: string,
) {
  let query = rollupRows(store, customerId, dimension, range, "charged");
  if (key !== undefined) query = query.where("key", "=", key);
  return query
    .select((eb) => [
      sql<string | number>`${sql.ref(by)}`.as("grp"),
      "product",
      eb.fn.sum("n").as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum("def_gallons_milli").as("defg"),
      ROLLUP_LAST_PURCHASE.as("last"),
    ])
    .groupBy([by, "product"])
    .execute();
}

/** groupedSums without a narrowing key, from the local-day rollup. */
export async function groupedSumsFromRollup(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
): Promise<GroupRow[]> {
  const rows = await rollupSums(store, customerId, groupBy, range, "key");
  return foldProducts(
    rows.map(({ grp, ...r }) => ({ ...r, k: keyOfRollup(groupBy, String(grp)) })),
    (r) => r.k,
  );
}

/** The same from the local-day rollup (the key's own dimension). */
export async function daySumsFromRollup(
  store: MirrorStore,
  customerId: string,
  only: { dimension: DrilldownDimension; key: string },
  range: LocalDateRange,
) {
  const rows = await rollupSums(store, customerId, only.dimension, range, "local_day", only.key);
  return foldProducts(
    rows.map(({ grp, ...r }) => ({ ...r, local_day: Number(grp) })),
    (r) => r.local_day,
  );
}
