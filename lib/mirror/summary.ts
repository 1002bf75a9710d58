import { sql } from "kysely";

import {
  averagePricePerGallon,
  fromMinorUnits,
  type RankAccumulator,
  rankByAmount,
  type RankedItem,
  type TransactionSummary,
} from "@/lib/model";

import { type Eb, whereOf } from "./filter";
import { countsByStatus } from "./queries";
import { exactInteger } from "./rows";
import type { InstantRange, MirrorStore } from "./store";

/**
 * The mirror's summary over any range: totals, a daily series in a given time zone, the top drivers, stations and
 * products, counts per status. Sums are integers of minor units, read exactly (BigInt), formatted by lib/model.
 */

/** Quarter hours: every UTC offset in use is a whole number of them, so any time zone's days are unions of them. */
const BUCKET_MS = 15 * 60_000;

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
function localDate(ms: number, formatter: Intl.DateTimeFormat): string {
  const parts = formatter.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

export interface SummaryQuery {
  fromMs: number;
  toMs: number;
  /** IANA time zone of the daily series, e.g. America/Chicago. */
  timeZone: string;
  top?: number;
}

type SqlInteger = number | string | bigint;

const acc = (id: string, r: { n: SqlInteger; g: SqlInteger | null; a: SqlInteger | null }): RankAccumulator => ({
  id,
  name: id,
  detail: null,
  transactions: Number(exactInteger(r.n)),
  gallons: exactInteger(r.g),
  amount: exactInteger(r.a),
});

/** Sums per quarter-hour bucket and per driver, station and product, and counts per status: the summary's queries. */
async function spendGroups(store: MirrorStore, customerId: string, range: InstantRange) {
  const spend = (eb: Eb) => eb.and([whereOf(eb, customerId, range), eb("status", "<>", "failed")]);
  // A literal, not a parameter: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
  const bucket = sql<number | string>`(at_ms / ${sql.lit(BUCKET_MS)})`;
  // Grouped by an expression rather than the bare column: SQLite would otherwise walk the driver or station index
  // (sorted by the group) and read every row from the table; the time index covers these columns and the range.
  const grouped = (column: "driver_id" | "station_id" | "product") => sql<string>`(${sql.ref(column)} || '')`;
  const groupBy = (column: "driver_id" | "station_id" | "product") =>
    store.db
      .selectFrom("mirror_transactions")
      .select((eb) => [
        grouped(column).as("key"),
        eb.fn.countAll().as("n"),
        eb.fn.sum("gallons_milli").as("g"),
        eb.fn.sum("amount_cents").as("a"),
      ])
      .where(spend)
      .groupBy(grouped(column))
      .execute();
  const [buckets, drivers, stations, products, byStatus] = await Promise.all([
    store.db
      .selectFrom("mirror_transactions")
      .select((eb) => [
        bucket.as("b"),
        eb.fn.countAll().as("n"),
        eb.fn.sum("gallons_milli").as("g"),
        eb.fn.sum("amount_cents").as("a"),
      ])
      .where(spend)
      .groupBy(bucket)
      .execute(),
    groupBy("driver_id"),
    groupBy("station_id"),
    groupBy("product"),
    countsByStatus(store, customerId, range),
  ]);
  return { buckets, drivers, stations, products, byStatus };
}

/** Names only for the ranked few (the latest row's, in the range): driver name and truck, station name and place. */
async function namesOfTop(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
  top: { drivers: RankedItem[]; stations: RankedItem[] },
) {
  const [drivers, stations] = await Promise.all([
    top.drivers.length === 0
      ? []
      : store.db
          .selectFrom("mirror_transactions")
          .select((eb) => ["driver_id", eb.fn.max("driver_name").as("name"), eb.fn.max("truck_id").as("truck")])
          .where((eb) =>
            eb.and([
              whereOf(eb, customerId, range),
              eb(
                "driver_id",
                "in",
                top.drivers.map((d) => d.id),
              ),
            ]),
          )
          .groupBy("driver_id")
          .execute(),
    top.stations.length === 0
      ? []
      : store.db
          .selectFrom("mirror_transactions")
          .select((eb) => [
            "station_id",
            eb.fn.max("station_name").as("name"),
            eb.fn.max("station_city").as("city"),
            eb.fn.max("station_state").as("st"),
          ])
          .where((eb) =>
            eb.and([
              whereOf(eb, customerId, range),
              eb(
                "station_id",
                "in",
                top.stations.map((d) => d.id),
              ),
            ]),
          )
          .groupBy("station_id")
          .execute(),
  ]);
  return {
    drivers: new Map(drivers.map((d) => [d.driver_id, d])),
    stations: new Map(stations.map((st) => [st.station_id, st])),
  };
}

interface DayTotals {
  transactions: number;
  gallons: bigint;
  amount: bigint;
}

/** Totals and the daily series: each quarter-hour bucket is added to its local day; days without spend stay zero. */
function dailySeries(
  query: SummaryQuery,
  buckets: { b: number | string; n: SqlInteger; g: SqlInteger | null; a: SqlInteger | null }[],
) {
  const formatter = new Intl.DateTimeFormat("en-CA", {
    timeZone: query.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const days = new Map<string, DayTotals>();
  // Every local day of the range: step by hours so a 23- or 25-hour day is neither skipped nor doubled.
  for (let t = query.fromMs; t < query.toMs; t += 3_600_000) {
    const date = localDate(t, formatter);
    if (!days.has(date)) days.set(date, { transactions: 0, gallons: 0n, amount: 0n });
  }
  if (query.toMs > query.fromMs) {
    const last = localDate(query.toMs - 1, formatter);
    if (!days.has(last)) days.set(last, { transactions: 0, gallons: 0n, amount: 0n });
  }
  const totals: DayTotals = { transactions: 0, gallons: 0n, amount: 0n };
  for (const b of buckets) {
    const n = Number(exactInteger(b.n));
    const g = exactInteger(b.g);
    const a = exactInteger(b.a);
    totals.transactions += n;
    totals.gallons += g;
    totals.amount += a;
    const day = days.get(localDate(Number(b.b) * BUCKET_MS, formatter));
    if (day) {
      day.transactions += n;
      day.gallons += g;
      day.amount += a;
    }
  }
  const daily = [...days.entries()]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([date, d]) => ({
      date,
      transactions: d.transactions,
      gallons: fromMinorUnits(d.gallons, 3),
      amount: fromMinorUnits(d.amount, 2),
    }));
  return { totals, daily };
}

/**
 * Totals, a daily series in `timeZone` (every local day of [fromMs, toMs), zeros included) and the top drivers,
 * stations and products, over any range. Spend is completed and pending (failed is not spend), as the upstream's
 * totals_30d and the BFF's summary count it. The series groups quarter-hour buckets in SQL and maps each bucket to
 * its local day here, so the store needs no time-zone support.
 */
export async function summarize(
  store: MirrorStore,
  customerId: string,
  query: SummaryQuery,
): Promise<TransactionSummary> {
  const range = { fromMs: query.fromMs, toMs: query.toMs };
  const top = query.top ?? 5;
  const groups = await spendGroups(store, customerId, range);
  const topDrivers = rankByAmount(
    groups.drivers.map((r) => acc(r.key, r)),
    top,
  );
  const topStations = rankByAmount(
    groups.stations.map((r) => acc(r.key, r)),
    top,
  );
  const names = await namesOfTop(store, customerId, range, { drivers: topDrivers, stations: topStations });
  const { totals, daily } = dailySeries(query, groups.buckets);
  return {
    from: new Date(query.fromMs).toISOString(),
    to: new Date(query.toMs).toISOString(),
    totals: {
      transactions: totals.transactions,
      gallons: fromMinorUnits(totals.gallons, 3),
      amount: fromMinorUnits(totals.amount, 2),
      averagePricePerGallon: averagePricePerGallon(totals.amount, totals.gallons),
    },
    daily,
    topDrivers: topDrivers.map((d) => ({
      ...d,
      name: names.drivers.get(d.id)?.name ?? d.id,
      detail: names.drivers.get(d.id)?.truck ?? null,
    })),
    topStations: topStations.map((st) => {
      const named = names.stations.get(st.id);
      return { ...st, name: named?.name ?? st.id, detail: named ? `${named.city}, ${named.st}` : null };
    }),
    products: rankByAmount(
      groups.products.map((r) => acc(r.key, r)),
      10,
    ),
    byStatus: groups.byStatus,
  };
}
