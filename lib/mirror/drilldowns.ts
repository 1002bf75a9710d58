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
import { statusesOf } from "@/lib/model/metrics";

import {
  addSums,
  figuresOf,
  foldProducts,
  type GroupRow,
  KEY_COLUMN,
  labelOf,
  LAST_PURCHASE,
  type LastDecoder,
  rollupLastOf,
  type SqlInteger,
  type Sums,
  sumsOf,
  ZERO,
  ZERO_FIGURES,
} from "./drilldowns-figures";
import { latestLabels } from "./drilldowns-labels";
import { daySumsFromRollup, groupedSumsFromRollup, topGroupsFromRollup } from "./drilldowns-rollup";
import { LOCAL_MS, localDayWhere } from "./local-dates";
import { dayName } from "./local-days";
import type { MirrorStore } from "./store";
import type { Eb } from "./types";

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
  all.push(eb("status", "in", [...statusesOf("charged")]));
  return eb.and(all);
}

/**
 * Where the sums are read: the local-day rollup (./local-rollups.ts, kept exact in every write's transaction — the
 * default, a few rows per key-day) or the rows (the property test's reference, and the breakdowns across dimensions,
 * which no rollup holds).
 */
export type DrilldownSource = "rollups" | "rows";

/** Exact sums per key of `groupBy` (null key: rows without one, e.g. no truck). */
async function groupedSums(
  store: MirrorStore,
  customerId: string,
  groupBy: DrilldownDimension,
  range: LocalDateRange,
  only?: { dimension: DrilldownDimension; key: string },
): Promise<GroupRow[]> {
  const column = KEY_COLUMN[groupBy];
  // A truck id '' is no truck (as the rollup keeps it).
  const keySql =
    groupBy === "truck" ? sql<string | null>`nullif(truck_id, '')` : sql<string | null>`${sql.ref(column)}`;
  // Sums only: the names (text columns outside the time index) cost a third of the query over a quarter; they come
  // from each key's newest row (labelsOf), one indexed lookup per key.
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [
      keySql.as("k"),
      eb.fn.countAll().as("n"),
      eb.fn.sum("gallons_milli").as("g"),
      eb.fn.sum("amount_cents").as("a"),
      "product",
      sql<SqlInteger>`sum(coalesce(def_gallons_milli, 0))`.as("defg"),
      LAST_PURCHASE.as("last"),
    ])
    .where((eb) => spendWhere(eb, customerId, range, only))
    .groupBy([keySql, "product"])
    .execute();
  return foldProducts(rows, (r) => r.k);
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
  decodeLast?: LastDecoder,
  top?: number,
  named = true,
): Promise<DrilldownRow[]> {
  let keyed = rows
    .filter((r): r is GroupRow & { k: string } => r.k !== null)
    .map((r) => ({ r, sums: sumsOf(r, decodeLast) }));
  if (top !== undefined) {
    // Only the first `top` are wanted: the keys down to the top-th amount (its ties too, which the names order) are
    // named and ranked, not every station of the fleet.
    const amounts = keyed.map((x) => x.sums.amount).sort((x, y) => (x > y ? -1 : x < y ? 1 : 0));
    const least = top === 0 ? null : amounts[Math.min(top, amounts.length) - 1];
    keyed = least === undefined || least === null ? [] : keyed.filter((x) => x.sums.amount >= least);
  }
  const labels = named
    ? await latestLabels(
        store,
        customerId,
        dimension,
        keyed.map((x) => x.r.k),
      )
    : new Map<string, { name: string; detail: string | null }>();
  const ranked = keyed
    .map(({ r, sums }) => ({
      key: r.k,
      ...(labels.get(r.k) ?? labelOf(dimension, r.k, {})),
      ...figuresOf(sums),
      sums,
    }))
    .sort(byAmountThenName)
    .map(({ sums: _sums, ...row }) => row);
  return top === undefined ? ranked : ranked.slice(0, top);
}

export interface RankedFigures {
  /** Ranked by amount, largest first (ties by name, then key). */
  rows: DrilldownRow[];
  totals: DrilldownFigures;
  /** Rows without a key (only trucks have such rows: a driver without a truck). */
  withoutKey: DrilldownFigures;
}

/**
 * Every key of the dimension with spend on the range's local dates, ranked, with the range's totals; only the first
 * `top` rows when given (the overview's five; 0: the totals alone), the same rows as the head of the whole ranking.
 * `named` false leaves the names out (each row is called by its key, e.g. a previous period read for its figures only):
 * the names are one lookup per key.
 */
export async function rankedFigures(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange | null,
  source: DrilldownSource = "rollups",
  top?: number,
  named = true,
): Promise<RankedFigures> {
  if (range === null) return { rows: [], totals: ZERO_FIGURES, withoutKey: ZERO_FIGURES };
  const fromRollup = source === "rollups";
  if (fromRollup && top !== undefined) {
    // The first few only (the overview): the keys are chosen by amount before their other sums are read.
    const head = await topGroupsFromRollup(store, customerId, dimension, range, top);
    const rows = await rankRows(store, customerId, dimension, head.groups, rollupLastOf, top, named);
    return { rows, totals: head.totals, withoutKey: head.withoutKey };
  }
  const groups = fromRollup
    ? await groupedSumsFromRollup(store, customerId, dimension, range)
    : await groupedSums(store, customerId, dimension, range);
  const decodeLast = fromRollup ? rollupLastOf : undefined;
  const totals = groups.reduce((acc, r) => addSums(acc, sumsOf(r, decodeLast)), ZERO);
  const none = groups.find((r) => r.k === null);
  return {
    rows: await rankRows(store, customerId, dimension, groups, decodeLast, top, named),
    totals: figuresOf(totals),
    withoutKey: none ? figuresOf(sumsOf(none, decodeLast)) : ZERO_FIGURES,
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

type Only = { dimension: DrilldownDimension; key: string };

/** One key's sums per local day (the day number), from the rows. */
async function daySums(store: MirrorStore, customerId: string, only: Only, range: LocalDateRange) {
  const rows = await store.db
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
    .execute();
  return foldProducts(rows, (r) => Number(r.local_day));
}

/**
 * One key's totals, trend and breakdown over the range's local dates (zeros everywhere when range is null).
 * `withBreakdown` false leaves the breakdown empty (a previous period read for its totals only): it is the costly part,
 * a read of the key's purchases and one name lookup per station or driver.
 */
export async function detailFigures(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  key: string,
  range: LocalDateRange | null,
  source: DrilldownSource = "rollups",
  withBreakdown = true,
): Promise<DetailFigures> {
  const breakdownBy = dimension === "station" ? "driver" : "station";
  if (range === null)
    return {
      totals: ZERO_FIGURES,
      trend: { unit: "day", points: [] },
      breakdown: { dimension: breakdownBy, rows: [] },
    };
  const only = { dimension, key };
  const fromRollup = source === "rollups";
  const [days, breakdown] = await Promise.all([
    fromRollup ? daySumsFromRollup(store, customerId, only, range) : daySums(store, customerId, only, range),
    withBreakdown ? groupedSums(store, customerId, breakdownBy, range, only) : [],
  ]);
  const perDay = new Map<number, Sums>();
  let totals = ZERO;
  for (const d of days) {
    const sums = sumsOf(d, fromRollup ? rollupLastOf : undefined);
    perDay.set(Number(d.local_day), sums);
    totals = addSums(totals, sums);
  }
  return {
    totals: figuresOf(totals),
    trend: trendOf(range, perDay),
    breakdown: { dimension: breakdownBy, rows: await rankRows(store, customerId, breakdownBy, breakdown) },
  };
}
