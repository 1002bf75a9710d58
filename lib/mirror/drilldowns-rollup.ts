import type { DrilldownDimension, LocalDateRange } from "@/lib/model/insight-drilldowns";

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

/** The rollup's spend rows (completed and pending) of the customer's dimension on the range's local days. */
function rollupSpend(store: MirrorStore, customerId: string, dimension: DrilldownDimension, range: LocalDateRange) {
  return store.db
    .selectFrom("mirror_local_day_totals")
    .where("customer_id", "=", customerId)
    .where("dimension", "=", dimension)
    .where("local_day", ">=", dayNumberOf(range.from))
    .where("local_day", "<=", dayNumberOf(range.to))
    .where("status", "<>", "failed");
}

/** groupedSums without a narrowing key, from the local-day rollup. */
export async function groupedSumsFromRollup(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
): Promise<GroupRow[]> {
  const rows = await rollupSpend(store, customerId, groupBy, range)
    .select((eb) => [
      "key",
      "product",
      eb.fn.sum("n").as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum("def_gallons_milli").as("defg"),
      ROLLUP_LAST_PURCHASE.as("last"),
    ])
    .groupBy(["key", "product"])
    .execute();
  return foldProducts(
    rows.map(({ key, ...r }) => ({ ...r, k: keyOfRollup(groupBy, key) })),
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
  const rows = await rollupSpend(store, customerId, only.dimension, range)
    .where("key", "=", only.key)
    .select((eb) => [
      "local_day",
      "product",
      eb.fn.sum("n").as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum("def_gallons_milli").as("defg"),
      ROLLUP_LAST_PURCHASE.as("last"),
    ])
    .groupBy(["local_day", "product"])
    .execute();
  return foldProducts(rows, (r) => r.local_day);
}
