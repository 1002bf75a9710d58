import "server-only";

import { sql } from "kysely";

import { epochMs, FLAG, type MirrorStore } from "@/lib/mirror";
import { fromMinorUnits, type LocalDateRange } from "@/lib/model";
import type { MissedSaving, SavingsFigures } from "@/lib/model/insight-savings";

import { FILL_KIND, NO_SAVINGS } from "./savings";
import type { SavingsFilter } from "./savings-query";
import { dollars } from "./savings-top";

/**
 * GET /api/savings' figures from the stored comparisons (lib/mirror/comparisons, lib/insights/savings-stored), once
 * refreshComparisons computed the pending fills: one SQL aggregation per period — over the per-date sums for the whole fleet,
 * over the fills (by the driver's or station's index) for one driver or station — and the largest missed savings read
 * from the index of the saving, largest first. The same figures as savingsFor (the stored-savings test is the proof).
 */

const TOP_MISSED = 10;
const MINUTE_MS = 60_000;

interface KindSums {
  kind: number;
  n: string;
  gallons_milli: string | null;
  own_checked: string | null;
  own_above: string | null;
  above_own_micro: string | null;
  with_saving: string | null;
  saved_micro: string | null;
  with_above_median: string | null;
  above_median_micro: string | null;
}

// Sums cross as text: exact on both stores (PostgreSQL's sum of bigint is numeric; SQLite's past 2⁵³ is not a Number).
const text = (expr: ReturnType<typeof sql>) => sql<string>`cast(${expr} as text)`;

async function kindSums(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  scope: SavingsFilter,
): Promise<KindSums[]> {
  if (scope.driverId === undefined && scope.stationId === undefined)
    return store.db
      .selectFrom("mirror_comparison_days")
      .select([
        "kind",
        text(sql`sum(n)`).as("n"),
        text(sql`sum(gallons_milli)`).as("gallons_milli"),
        text(sql`sum(own_checked)`).as("own_checked"),
        text(sql`sum(own_above)`).as("own_above"),
        text(sql`sum(above_own_micro)`).as("above_own_micro"),
        text(sql`sum(with_saving)`).as("with_saving"),
        text(sql`sum(saved_micro)`).as("saved_micro"),
        text(sql`sum(with_above_median)`).as("with_above_median"),
        text(sql`sum(above_median_micro)`).as("above_median_micro"),
      ])
      .where("customer_id", "=", customerId)
      .where("local_date", ">=", range.from)
      .where("local_date", "<=", range.to)
      .groupBy("kind")
      .execute();
  let q = store.db
    .selectFrom("mirror_fill_comparisons")
    .select([
      "kind",
      text(sql`count(*)`).as("n"),
      text(sql`sum(gallons_milli)`).as("gallons_milli"),
      text(sql`sum(case when own_checked = 1 then 1 else 0 end)`).as("own_checked"),
      text(sql`sum(case when (flags & ${FLAG.aboveOwn}) <> 0 then 1 else 0 end)`).as("own_above"),
      text(sql`sum(above_own_micro)`).as("above_own_micro"),
      text(sql`sum(case when (flags & ${FLAG.saving}) <> 0 then 1 else 0 end)`).as("with_saving"),
      text(sql`sum(saved_micro)`).as("saved_micro"),
      text(sql`sum(case when (flags & ${FLAG.aboveMedian}) <> 0 then 1 else 0 end)`).as("with_above_median"),
      text(sql`sum(above_median_micro)`).as("above_median_micro"),
    ])
    .where("customer_id", "=", customerId)
    .where("kind", ">=", FILL_KIND.compared)
    .where("local_date", ">=", range.from)
    .where("local_date", "<=", range.to);
  if (scope.driverId !== undefined) q = q.where("driver_id", "=", scope.driverId);
  if (scope.stationId !== undefined) q = q.where("station_id", "=", scope.stationId);
  return q.groupBy("kind").execute();
}

const big = (v: string | null | undefined): bigint => BigInt(v ?? "0");

function figuresOf(sums: readonly KindSums[]): SavingsFigures {
  const of = (kind: number) => sums.find((s) => s.kind === kind);
  const total = (pick: (s: KindSums) => string | null) => sums.reduce((t, s) => t + big(pick(s)), 0n);
  const count = (kind: number) => ({
    fills: Number(big(of(kind)?.n)),
    gallons: fromMinorUnits(big(of(kind)?.gallons_milli), 3),
  });
  const checked = Number(total((s) => s.own_checked));
  const asked = [FILL_KIND.compared, FILL_KIND.noObservation, FILL_KIND.noOtherStation].reduce<number>(
    (t, k) => t + Number(big(of(k)?.n)),
    0,
  );
  const compared = count(FILL_KIND.compared);
  return {
    considered: Number(total((s) => s.n)),
    fills: compared.fills,
    gallons: compared.gallons,
    couldHaveSaved: dollars(total((s) => s.saved_micro)),
    fillsWithSaving: Number(total((s) => s.with_saving)),
    aboveStateMedian: dollars(total((s) => s.above_median_micro)),
    fillsAboveStateMedian: Number(total((s) => s.with_above_median)),
    notCompared: { noObservation: count(FILL_KIND.noObservation), noOtherStation: count(FILL_KIND.noOtherStation) },
    unknownStation: count(FILL_KIND.unknownStation),
    otherProduct: count(FILL_KIND.otherProduct),
    priceApplied: {
      checked,
      notChecked: asked - checked,
      fillsAbove: Number(total((s) => s.own_above)),
      paidAbove: dollars(total((s) => s.above_own_micro)),
    },
  };
}

/** The ids of the range's largest missed savings: those with a saving of 0 (0 gallons) only when asked for. */
async function topIds(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  scope: SavingsFilter,
  zero: boolean,
  limit: number,
): Promise<string[]> {
  const scoped = scope.driverId !== undefined || scope.stationId !== undefined;
  // The fleet's: down the saving's index (largest first) until `limit` fall in the range. The date as an expression,
  // so no date index is eligible: SQLite took the date index for some ranges (at 1,000,000 rows, 30 days in one
  // sample, 366 in another) and sorted every fill of the range, 100–250 ms instead of a few.
  const date = scoped ? sql.ref("local_date") : sql<string>`(local_date || '')`;
  let q = store.db
    .selectFrom("mirror_fill_comparisons")
    .select("tx_id")
    .where("customer_id", "=", customerId)
    .where(date, ">=", range.from)
    .where(date, "<=", range.to);
  q = zero
    ? q.where("saved_micro", "=", 0).where(sql<boolean>`(flags & ${FLAG.saving}) <> 0`)
    : q.where("saved_micro", ">", 0);
  if (scope.driverId !== undefined) q = q.where("driver_id", "=", scope.driverId);
  if (scope.stationId !== undefined) q = q.where("station_id", "=", scope.stationId);
  const rows = await q.orderBy("saved_micro", "desc").orderBy("at_ms", "desc").limit(limit).execute();
  return rows.map((r) => r.tx_id);
}

/**
 * The largest missed savings of the range (largest first; ties: the later fill first), with their details: the ids
 * from the index of the saving alone (customer, saved, at, date: read from the largest down until ten fall in the
 * range), then the ten rows with their names.
 */
async function topMissed(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  scope: SavingsFilter,
  withSaving: number,
): Promise<MissedSaving[]> {
  const ids = await topIds(store, customerId, range, scope, false, TOP_MISSED);
  // A fill of 0 gallons at a higher price counts as one with a saving of $0: listed last, as computeSavings would.
  if (ids.length < TOP_MISSED && withSaving > ids.length)
    ids.push(...(await topIds(store, customerId, range, scope, true, TOP_MISSED - ids.length)));
  if (ids.length === 0) return [];
  const rows = await store.db
    .selectFrom("mirror_fill_comparisons as c")
    .innerJoin("mirror_transactions as t", (j) =>
      j.onRef("t.customer_id", "=", "c.customer_id").onRef("t.id", "=", "c.tx_id"),
    )
    .leftJoin("mirror_stations as s", (j) =>
      j.onRef("s.customer_id", "=", "c.customer_id").onRef("s.id", "=", "c.cheaper_id"),
    )
    .select([
      "c.tx_id",
      "c.at_ms",
      "c.local_date",
      "c.gallons_milli",
      "c.price_milli",
      "c.saved_micro",
      "c.cheaper_id",
      "c.cheaper_price_milli",
      "c.cheaper_miles",
      "c.cheaper_apart_ms",
      "t.reference",
      "t.driver_id",
      "t.driver_name",
      "t.station_id",
      "t.station_name",
      "t.station_city",
      "t.station_state",
      "s.name as cheaper_name",
      "s.city as cheaper_city",
      "s.state as cheaper_state",
    ])
    .where("c.customer_id", "=", customerId)
    .where("c.tx_id", "in", ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.tx_id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r === undefined ? [] : [missedOf(r)];
  });
}

type TopRow = {
  tx_id: string;
  at_ms: number | string;
  local_date: string;
  gallons_milli: number | string;
  price_milli: number;
  saved_micro: number | string;
  cheaper_id: string | null;
  cheaper_price_milli: number | null;
  cheaper_miles: number | null;
  cheaper_apart_ms: number | string | null;
  reference: string;
  driver_id: string;
  driver_name: string;
  station_id: string;
  station_name: string;
  station_city: string;
  station_state: string;
  cheaper_name: string | null;
  cheaper_city: string | null;
  cheaper_state: string | null;
};

const missedOf = (r: TopRow): MissedSaving => ({
  transactionId: r.tx_id,
  reference: r.reference,
  at: new Date(epochMs(r.at_ms)).toISOString(),
  localDate: r.local_date,
  driver: { id: r.driver_id, name: r.driver_name },
  station: { id: r.station_id, name: r.station_name, city: r.station_city, state: r.station_state },
  gallons: fromMinorUnits(BigInt(r.gallons_milli), 3),
  paid: fromMinorUnits(BigInt(r.price_milli), 3),
  cheaper: {
    id: r.cheaper_id ?? "",
    name: r.cheaper_name ?? "",
    city: r.cheaper_city ?? "",
    state: r.cheaper_state ?? "",
    price: fromMinorUnits(BigInt(r.cheaper_price_milli ?? 0), 3),
    miles: (r.cheaper_miles ?? 0).toFixed(1),
    apartMinutes: Math.round(epochMs(r.cheaper_apart_ms ?? 0) / MINUTE_MS),
  },
  saving: dollars(BigInt(r.saved_micro)),
});

/**
 * savingsFor's answer from the stored comparisons, as they are: reads only (a worker's read-only connection can run
 * it); refreshComparisons must have run since the last write (GET /api/savings runs it on the writing connection).
 * `top: false`: the figures only (the previous period's top ten is not in the reply).
 */
export async function storedSavingsFor(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange | null,
  scope: SavingsFilter,
  options: { top: boolean } = { top: true },
): Promise<{ figures: SavingsFigures; top: MissedSaving[] }> {
  if (range === null) return { figures: NO_SAVINGS, top: [] };
  const figures = figuresOf(await kindSums(store, customerId, range, scope));
  // The index of the saving is read from the largest down until ten fall in the range: a range with no saving (a
  // previous period before the price history) would read all of it, so it is not read then.
  const top =
    options.top && figures.fillsWithSaving > 0
      ? await topMissed(store, customerId, range, scope, figures.fillsWithSaving)
      : [];
  return { figures, top };
}
