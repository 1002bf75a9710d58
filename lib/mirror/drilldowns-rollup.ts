import { sql } from "kysely";

import type { DrilldownDimension, DrilldownFigures, LocalDateRange } from "@/lib/model/insight-drilldowns";
import { statusesOf, type StatusSet } from "@/lib/model/metrics";

import {
  addSums,
  figuresOf,
  foldProducts,
  type GroupRow,
  ROLLUP_LAST_PURCHASE,
  rollupLastOf,
  type SqlInteger,
  sumsOf,
  ZERO,
  ZERO_FIGURES,
} from "./drilldowns-figures";
import { PACKED_DAY_LAST, planLocalDays } from "./local-blocks";
import { dayNumberOf } from "./local-rollups";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";
import type { LocalDimension } from "./types";

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
 * The spend rows (completed and pending) of the dimension over the range as one `union all`: the largest whole blocks
 * of local days that fit (./local-blocks.ts) and the day rows at the ends; only the `keys` given, when given.
 */
function spendParts(
  store: MirrorStore,
  customerId: string,
  dimension: LocalDimension,
  range: LocalDateRange,
  only?: KeysOnly,
) {
  const statuses = [...statusesOf("charged")];
  const keys = only?.keys;
  const narrowed = keys !== undefined;
  const d0 = dayNumberOf(range.from);
  const d1 = dayNumberOf(range.to) + 1;
  const plan = only?.viaDays === true ? [{ span: 1, from: d0, to: d1 }] : planLocalDays(d0, d1);
  const parts = plan.map((p) =>
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
          .$if(narrowed, (q) => q.where("key", "in", keys ?? []))
      : store.db
          .selectFrom("mirror_local_block_totals")
          .select(["key", "product", "n", "gallons_milli", "amount_cents", "def_gallons_milli"])
          .select(sql<number | string>`last_packed`.as("last"))
          .where("customer_id", "=", customerId)
          .where("dimension", "=", dimension)
          .where("span_days", "=", p.span)
          .where("block", ">=", p.from)
          .where("block", "<", p.to)
          .where("status", "in", statuses)
          .$if(narrowed, (q) => q.where("key", "in", keys ?? [])),
  );
  const [first, ...rest] = parts;
  return first === undefined ? undefined : rest.reduce((union, part) => union.unionAll(part), first);
}

/**
 * Some keys only: their rows of the plan's blocks and days (no index finds a key inside a block: every block row of the
 * range is read and filtered), or `viaDays`, every day row of theirs through the day rows' key index (few keys of
 * many, e.g. the top 5 of 2,500 stations).
 */
interface KeysOnly {
  keys: readonly string[];
  viaDays: boolean;
}

/** The spend sums of the dimension over the range per key × product (only some keys when given), in one statement. */
async function keySums(
  store: MirrorStore,
  customerId: string,
  dimension: LocalDimension,
  range: LocalDateRange,
  only?: KeysOnly,
) {
  if (only?.keys.length === 0) return [];
  const all = spendParts(store, customerId, dimension, range, only);
  if (all === undefined) return [];
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

/**
 * The spend amount per key of the dimension over the range (what a ranking orders by), one row per key: a ranking's
 * first few are chosen from these before their other sums are read (./drilldowns-top.ts).
 */
async function keyAmounts(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange,
): Promise<{ key: string | null; amount: bigint }[]> {
  const all = spendParts(store, customerId, dimension, range);
  if (all === undefined) return [];
  const rows = await store.db
    .selectFrom(all.as("u"))
    .select((eb) => ["u.key", eb.fn.sum<SqlInteger>("u.amount_cents").as("a")])
    .groupBy("u.key")
    .execute();
  return rows.map((r) => ({ key: keyOfRollup(dimension, r.key), amount: exactInteger(r.a) }));
}

/**
 * The range's spend sums of every purchase, per product (no key): from the state dimension, the one with the fewest
 * rows — every purchase is in each dimension once (a missing truck is the key ''), so any dimension's total is the same.
 */
async function fleetSums(store: MirrorStore, customerId: string, range: LocalDateRange): Promise<GroupRow[]> {
  const all = spendParts(store, customerId, "state", range);
  if (all === undefined) return [];
  const rows = await store.db
    .selectFrom(all.as("u"))
    .select((eb) => [
      "u.product",
      eb.fn.sum("u.n").as("n"),
      eb.fn.sum("u.gallons_milli").as("g"),
      eb.fn.sum("u.amount_cents").as("a"),
      eb.fn.sum("u.def_gallons_milli").as("defg"),
      eb.fn.max("u.last").as("last"),
    ])
    .groupBy("u.product")
    .execute();
  return foldProducts(
    rows.map((r) => ({ ...r, k: "" })),
    () => "",
  );
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

/** groupedSums without a narrowing key, from the local-day rollup; only the given keys' groups when `only` is given. */
export async function groupedSumsFromRollup(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
  only?: { keys: readonly (string | null)[]; viaDays: boolean },
): Promise<GroupRow[]> {
  // The rows' null truck is the rollup's ''.
  const narrowed = only && { keys: only.keys.map((k) => k ?? ""), viaDays: only.viaDays };
  const rows = await keySums(store, customerId, groupBy, range, narrowed);
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

/** What a row read through an index costs, in rows read by a scan (a rough figure, measured on both stores). */
const INDEX_READ_COST = 3;

/**
 * What a ranking's first `top` rows need, without summing every key's products: each key's amount (one sum per key)
 * chooses the keys down to the top-th amount (its ties too, which the names order), and only those keys' sums are
 * read; the totals come from the fleet's sums per product (fleetSums), a truck ranking's purchases without a truck from
 * the '' key alone. The same figures as groupedSumsFromRollup's every key (the property test's check).
 */
export async function topGroupsFromRollup(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange,
  top: number,
): Promise<{ groups: GroupRow[]; totals: DrilldownFigures; withoutKey: DrilldownFigures }> {
  const [amounts, fleet, none] = await Promise.all([
    top === 0 ? [] : keyAmounts(store, customerId, dimension, range),
    fleetSums(store, customerId, range),
    dimension === "truck"
      ? groupedSumsFromRollup(store, customerId, dimension, range, { keys: [null], viaDays: true })
      : [],
  ]);
  const keyed = amounts.filter((a): a is { key: string; amount: bigint } => a.key !== null);
  const sorted = keyed.map((a) => a.amount).sort((x, y) => (x > y ? -1 : x < y ? 1 : 0));
  const least = top === 0 ? undefined : sorted[Math.min(top, sorted.length) - 1];
  const chosen = least === undefined ? [] : keyed.filter((a) => a.amount >= least).map((a) => a.key);
  const days = dayNumberOf(range.to) - dayNumberOf(range.from) + 1;
  const parts = planLocalDays(dayNumberOf(range.from), dayNumberOf(range.to) + 1).length;
  // Through the key index when the chosen keys' day rows are fewer than the plan's rows of every key (an index read
  // costing about three of a scan's): the top 5 of 2,500 stations, not of 200 drivers over a year.
  const viaDays = chosen.length * days * INDEX_READ_COST < amounts.length * parts;
  const groups =
    chosen.length === 0
      ? []
      : await groupedSumsFromRollup(store, customerId, dimension, range, { keys: chosen, viaDays });
  const sums = (rows: readonly GroupRow[]) => rows.reduce((acc, r) => addSums(acc, sumsOf(r, rollupLastOf)), ZERO);
  return {
    groups,
    totals: figuresOf(sums(fleet)),
    withoutKey: none.length === 0 ? ZERO_FIGURES : figuresOf(sums(none)),
  };
}
