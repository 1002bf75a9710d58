import { type Expression, sql, type SqlBool } from "kysely";

import { fromMinorUnits } from "@/lib/model";
import type {
  DrilldownDimension,
  DrilldownFigures,
  DrilldownRow,
  DrilldownTrendPoint,
  LocalDateRange,
} from "@/lib/model/insight-drilldowns";
import { TREND_DAYS_MAX } from "@/lib/model/insight-drilldowns";
import { classifyProduct } from "@/lib/model/product-classes";

import {
  addSums,
  figuresOf,
  type GroupRow,
  KEY_COLUMN,
  labelOf,
  LAST_PURCHASE,
  type ProductGroupRow,
  type SqlInteger,
  type Sums,
  sumsOf,
  ZERO,
  ZERO_FIGURES,
} from "./drilldowns-figures";
import { latestLabels } from "./drilldowns-labels";
import type { Eb } from "./filter";
import { LOCAL_MS, localDayWhere } from "./local-dates";
import { dayName } from "./local-days";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";

/**
 * Drill-downs over the mirror, one design for every dimension (driver, truck, card, station): figures per key of a
 * range of local dates (ranked), and one key's detail (totals, trend per local day, its stations or drivers). Spend
 * is completed and pending (failed is not spend: the summary's and the list totals' rule), so a driver's amount here
 * equals the transactions list's total for `driver=…&dates=local` over the same dates. Each query reads the rows of
 * the range through an index that starts with the customer and the time (or the key and the time).
 */

const DAY_MS = 86_400_000;

export { defRatioPercent, ZERO_FIGURES } from "./drilldowns-figures";

/** The spend rows of the customer on the range's local dates, narrowed to one key when given. */
function spendWhere(
  eb: Eb,
  customerId: string,
  range: LocalDateRange,
  only?: { dimension: DrilldownDimension; key: string },
): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("customer_id", "=", customerId), localDayWhere(eb, range)];
  if (only) all.push(eb(KEY_COLUMN[only.dimension], "=", only.key));
  all.push(eb("status", "<>", "failed"));
  return eb.and(all);
}

/** Exact sums per key of `groupBy` (null key: rows without one, e.g. no truck). */
async function groupedSums(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
  only?: { dimension: DrilldownDimension; key: string },
): Promise<GroupRow[]> {
  const column = KEY_COLUMN[groupBy];
  // Sums only: the names (text columns outside the time index) cost a third of the query over a quarter; they come
  // from each key's newest row (labelsOf), one indexed lookup per key.
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [
      sql<string | null>`${sql.ref(column)}`.as("k"),
      eb.fn.countAll().as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      "product",
      sql<SqlInteger>`sum(coalesce(def_gallons_milli, 0))`.as("defg"),
      LAST_PURCHASE.as("last"),
    ])
    .where((eb) => spendWhere(eb, customerId, range, only))
    .groupBy([column, "product"])
    .execute();
  return foldProducts(rows, (r) => r.k);
}

/**
 * Sums per group from sums per group × product: the product's class comes from the one classifier
 * (lib/model/product-classes), not a comparison in SQL, so "Diesel" and "ULSD #2" are diesel gallons and a purchase
 * of DEF itself ("DEF", "AdBlue") counts in the DEF gallons, on both stores alike.
 */
function foldProducts<R extends ProductGroupRow>(
  rows: readonly R[],
  keyOf: (r: R) => string | number | null,
): (R & { dg: SqlInteger })[] {
  const folded = new Map<string | number | null, R & { dg: SqlInteger }>();
  const bigOf = (v: SqlInteger) => exactInteger(v);
  const later = (x: SqlInteger, y: SqlInteger) => (x === null ? y : y === null ? x : Number(x) > Number(y) ? x : y);
  for (const r of rows) {
    const productClass = classifyProduct(r.product).productClass;
    const g = bigOf(r.g);
    const own: R & { dg: SqlInteger } = {
      ...r,
      dg: productClass === "diesel" ? g : 0n,
      defg: bigOf(r.defg) + (productClass === "def" ? g : 0n),
    };
    const key = keyOf(r);
    const seen = folded.get(key);
    folded.set(
      key,
      seen === undefined
        ? own
        : {
            ...seen,
            n: bigOf(seen.n) + bigOf(own.n),
            g: bigOf(seen.g) + g,
            a: bigOf(seen.a) + bigOf(own.a),
            dg: bigOf(seen.dg) + bigOf(own.dg),
            defg: bigOf(seen.defg) + bigOf(own.defg),
            // LAST_PURCHASE packs time and offset in one integer (exact below 2^53), so the later one is the larger.
            last: later(seen.last, own.last),
          },
    );
  }
  return [...folded.values()];
}

const byAmountThenName = (x: DrilldownRow & { sums: Sums }, y: DrilldownRow & { sums: Sums }) =>
  x.sums.amount === y.sums.amount
    ? x.name < y.name
      ? -1
      : x.name > y.name
        ? 1
        : x.key < y.key
          ? -1
          : 1
    : x.sums.amount > y.sums.amount
      ? -1
      : 1;

async function rankRows(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  rows: GroupRow[],
): Promise<DrilldownRow[]> {
  const keyed = rows.filter((r): r is GroupRow & { k: string } => r.k !== null);
  const labels = await latestLabels(
    store,
    customerId,
    dimension,
    keyed.map((r) => r.k),
  );
  return keyed
    .map((r) => {
      const sums = sumsOf(r);
      return { key: r.k, ...(labels.get(r.k) ?? labelOf(dimension, r.k, {})), ...figuresOf(sums), sums };
    })
    .sort(byAmountThenName)
    .map(({ sums: _sums, ...row }) => row);
}

export interface RankedFigures {
  /** Ranked by amount, largest first (ties by name, then key). */
  rows: DrilldownRow[];
  totals: DrilldownFigures;
  /** Rows without a key (only trucks have such rows: a driver without a truck). */
  withoutKey: DrilldownFigures;
}

/** Every key of the dimension with spend on the range's local dates, ranked, with the range's totals. */
export async function rankedFigures(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange | null,
): Promise<RankedFigures> {
  if (range === null) return { rows: [], totals: ZERO_FIGURES, withoutKey: ZERO_FIGURES };
  const groups = await groupedSums(store, customerId, dimension, range);
  const totals = groups.reduce((acc, r) => addSums(acc, sumsOf(r)), ZERO);
  const none = groups.find((r) => r.k === null);
  return {
    rows: await rankRows(store, customerId, dimension, groups),
    totals: figuresOf(totals),
    withoutKey: none ? figuresOf(sumsOf(none)) : ZERO_FIGURES,
  };
}

/** Whether the customer's mirror has any row of this key (its label if so): known keys answer zeros, not 404. */
export { latestLabel as keyKnown } from "./drilldowns-labels";

export interface DetailFigures {
  totals: DrilldownFigures;
  trend: { unit: "day" | "week"; points: DrilldownTrendPoint[] };
  /** Stations of a driver, truck or card; drivers of a station. */
  breakdown: { dimension: "station" | "driver"; rows: DrilldownRow[] };
}

const dayNumber = (date: string) => Math.round(Date.parse(date) / DAY_MS);

/** Every local day (or week from the range's first day, when longer than 62 days) of the range, zeros included. */
function trendOf(range: LocalDateRange, perDay: ReadonlyMap<number, Sums>): DetailFigures["trend"] {
  const first = dayNumber(range.from);
  const last = dayNumber(range.to);
  const unit = last - first + 1 > TREND_DAYS_MAX ? "week" : "day";
  const step = unit === "week" ? 7 : 1;
  const points: DrilldownTrendPoint[] = [];
  for (let start = first; start <= last; start += step) {
    const end = Math.min(start + step - 1, last);
    let sums = ZERO;
    for (let d = start; d <= end; d++) {
      const s = perDay.get(d);
      if (s) sums = addSums(sums, s);
    }
    points.push({
      from: dayName(start),
      to: dayName(end),
      purchases: sums.purchases,
      gallons: fromMinorUnits(sums.gallons, 3),
      amount: fromMinorUnits(sums.amount, 2),
    });
  }
  return { unit, points };
}

/** One key's totals, trend and breakdown over the range's local dates (zeros everywhere when range is null). */
export async function detailFigures(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  key: string,
  range: LocalDateRange | null,
): Promise<DetailFigures> {
  const breakdownBy = dimension === "station" ? "driver" : "station";
  if (range === null)
    return {
      totals: ZERO_FIGURES,
      trend: { unit: "day", points: [] },
      breakdown: { dimension: breakdownBy, rows: [] },
    };
  const only = { dimension, key };
  const [days, breakdown] = await Promise.all([
    store.db
      .selectFrom("mirror_transactions")
      .select((eb) => [
        // The local day number. cast(): better-sqlite3 binds LOCAL_MS's number parameter as a real, which would make
        // the division a real one on SQLite (the wall time is positive, so truncation is the floor).
        sql<SqlInteger>`cast((${LOCAL_MS}) / 86400000 as integer)`.as("local_day"),
        eb.fn.countAll().as("n"),
        eb.fn.sum("gallons_milli").as("g"),
        eb.fn.sum("amount_cents").as("a"),
        "product",
        sql<SqlInteger>`sum(coalesce(def_gallons_milli, 0))`.as("defg"),
        LAST_PURCHASE.as("last"),
      ])
      .where((eb) => spendWhere(eb, customerId, range, only))
      .groupBy([sql`local_day`, "product"])
      .execute()
      .then((rows) => foldProducts(rows, (r) => Number(r.local_day))),
    groupedSums(store, customerId, breakdownBy, range, only),
  ]);
  const perDay = new Map<number, Sums>();
  let totals = ZERO;
  for (const d of days) {
    const sums = sumsOf(d);
    perDay.set(Number(d.local_day), sums);
    totals = addSums(totals, sums);
  }
  return {
    totals: figuresOf(totals),
    trend: trendOf(range, perDay),
    breakdown: { dimension: breakdownBy, rows: await rankRows(store, customerId, breakdownBy, breakdown) },
  };
}
