import { sql } from "kysely";

import type { DrilldownDimension, LocalDateRange } from "@/lib/model/insight-drilldowns";
import { statusesOf, type StatusSet } from "@/lib/model/metrics";

import { foldProducts, type GroupRow, ROLLUP_LAST_PURCHASE } from "./drilldowns-figures";
import { PACKED_DAY_LAST, planLocalDays } from "./local-blocks";
import { dayNumberOf } from "./local-rollups";
import type { MirrorStore } from "./store";

/**
 * The drill-downs' sums read from the local-day rollup (./local-rollups.ts: per customer × local date × dimension ×
 * key × product × status, kept exact in every write's transaction): a few rows per key-day instead of every purchase
 * of the range, and over long ranges its blocks of 4, 16 and 128 days (./local-blocks.ts). lib/mirror/drilldowns reads the
 * rows for what no rollup holds (a key's breakdown by another dimension) and as the property test's reference.
 */

/** A key as the figures know it: the rollup's '' truck (a purchase without one) is the rows' null. */
const keyOfRollup = (dimension: DrilldownDimension, key: string): string | null =>
  dimension === "truck" && key === "" ? null : key;

/** The local-day rollup's rows of the customer's dimension on the range's local days, of one status set. */
function rollupRows(
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
 * The spend sums (completed and pending) of the dimension over the range per key × product, in one statement: the
 * largest whole blocks of local days that fit (./local-blocks.ts) and the day rows at the ends, added up by the store.
 */
function keySums(store: MirrorStore, customerId: string, dimension: DrilldownDimension, range: LocalDateRange) {
  const statuses = [...statusesOf("charged")];
  const parts = planLocalDays(dayNumberOf(range.from), dayNumberOf(range.to) + 1).map((p) =>
    p.span === 1
      ? store.db
          .selectFrom("mirror_local_day_totals")
          .select(["key", "product", "n", "gallons_milli", "amount_cents", "def_gallons_milli"])
          .select(PACKED_DAY_LAST.as("last"))
          .where("customer_id", "=", customerId)
          .where("dimension", "=", dimension)
          .where("local_day", ">=", p.from)
          .where("local_day", "<", p.to)
          .where("status", "in", statuses)
      : store.db
          .selectFrom("mirror_local_block_totals")
          .select(["key", "product", "n", "gallons_milli", "amount_cents", "def_gallons_milli"])
          .select(sql<number | string>`last_packed`.as("last"))
          .where("customer_id", "=", customerId)
          .where("dimension", "=", dimension)
          .where("span_days", "=", p.span)
          .where("block", ">=", p.from)
          .where("block", "<", p.to)
          .where("status", "in", statuses),
  );
  const [first, ...rest] = parts;
  if (first === undefined) return Promise.resolve([]);
  const all = rest.reduce((union, part) => union.unionAll(part), first);
  return store.db
    .selectFrom(all.as("u"))
    .select((eb) => [
      "u.key as grp",
      "u.product",
      eb.fn.sum("u.n").as("n"),
      eb.fn.sum("u.gallons_milli").as("g"),
      eb.fn.sum("u.amount_cents").as("a"),
      eb.fn.sum("u.def_gallons_milli").as("defg"),
      eb.fn.max("u.last").as("last"),
    ])
    .groupBy(["u.key", "u.product"])
    .execute();
}

/** One key's spend sums per local day × product, from the day rows (through the day rows' key index). */
function daySumsOfKey(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange,
  key: string,
) {
  return rollupRows(store, customerId, dimension, range, "charged")
    .where("key", "=", key)
    .select((eb) => [
      "local_day as grp",
      "product",
      eb.fn.sum("n").as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      eb.fn.sum("def_gallons_milli").as("defg"),
      ROLLUP_LAST_PURCHASE.as("last"),
    ])
    .groupBy(["local_day", "product"])
    .execute();
}

/** groupedSums without a narrowing key, from the local-day rollup. */
export async function groupedSumsFromRollup(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
): Promise<GroupRow[]> {
  const rows = await keySums(store, customerId, groupBy, range);
  return foldProducts(
    rows.map(({ grp, ...r }) => ({ ...r, k: keyOfRollup(groupBy, grp) })),
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
  const rows = await daySumsOfKey(store, customerId, only.dimension, range, only.key);
  return foldProducts(
    rows.map(({ grp, ...r }) => ({ ...r, local_day: grp })),
    (r) => r.local_day,
  );
}
