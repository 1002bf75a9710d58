import {
  averagePricePerGallon,
  fromMinorUnits,
  type RankAccumulator,
  rankByAmount,
  type RankedItem,
  TRANSACTION_STATUSES,
  type TransactionSummary,
} from "@/lib/model";

import { whereOf } from "./filter";
import { dayName, localDayNumberOf } from "./local-days";
import { type BucketSum, bucketSums, groupSums, type GroupTotal, type SumSource } from "./rollup-reads";
import { BUCKET_MS } from "./rollups";
import { exactInteger } from "./rows";
import type { InstantRange, MirrorStore, StatusCounts } from "./store";

type Range = Required<InstantRange>;

/**
 * The mirror's summary over any range: totals, a daily series in a given time zone, the top drivers, stations and
 * products, counts per status. Sums are integers of minor units, read exactly (BigInt), formatted by lib/model.
 */

export interface SummaryQuery {
  fromMs: number;
  toMs: number;
  /** IANA time zone of the daily series, e.g. America/Chicago. */
  timeZone: string;
  top?: number;
}

const acc = (r: GroupTotal): RankAccumulator => ({
  id: r.key,
  name: r.key,
  detail: null,
  transactions: r.transactions,
  gallons: r.gallons,
  amount: r.amount,
});

/** Sums per quarter-hour bucket and per driver, station and product: the summary's queries. */
async function spendGroups(store: MirrorStore, customerId: string, range: Range, source: SumSource) {
  const [buckets, drivers, stations, products] = await Promise.all([
    bucketSums(store, customerId, range, source),
    groupSums(store, customerId, "driver", range, source),
    groupSums(store, customerId, "station", range, source),
    groupSums(store, customerId, "product", range, source),
  ]);
  return { buckets, drivers, stations, products };
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

const zero = (): DayTotals => ({ transactions: 0, gallons: 0n, amount: 0n });

/**
 * Totals, counts per status and the daily series: each quarter-hour bucket is added to its local day; days without
 * spend stay zero.
 */
function dailySeries(query: SummaryQuery, buckets: readonly BucketSum[]) {
  const dayOf = localDayNumberOf(query.timeZone);
  const days = new Map<number, DayTotals>();
  // Every local day of the range: step by hours so a 23- or 25-hour day is neither skipped nor doubled.
  for (let t = query.fromMs; t < query.toMs; t += 3_600_000) {
    const day = dayOf(t);
    if (!days.has(day)) days.set(day, zero());
  }
  if (query.toMs > query.fromMs) {
    const last = dayOf(query.toMs - 1);
    if (!days.has(last)) days.set(last, zero());
  }
  const totals = zero();
  const byStatus = Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const b of buckets) {
    const n = Number(exactInteger(b.spendN));
    const g = exactInteger(b.g);
    const a = exactInteger(b.a);
    byStatus.completed += Number(exactInteger(b.completed));
    byStatus.pending += Number(exactInteger(b.pending));
    byStatus.failed += Number(exactInteger(b.failed));
    totals.transactions += n;
    totals.gallons += g;
    totals.amount += a;
    const day = days.get(dayOf(Number(b.bucket) * BUCKET_MS));
    if (day) {
      day.transactions += n;
      day.gallons += g;
      day.amount += a;
    }
  }
  const daily = [...days.entries()]
    .sort(([x], [y]) => x - y)
    .map(([day, d]) => ({
      date: dayName(day),
      transactions: d.transactions,
      gallons: fromMinorUnits(d.gallons, 3),
      amount: fromMinorUnits(d.amount, 2),
    }));
  return { totals, daily, byStatus };
}

/**
 * Totals, a daily series in `timeZone` (every local day of [fromMs, toMs), zeros included) and the top drivers,
 * stations and products, over any range. Spend is completed and pending (failed is not spend), as the upstream's
 * totals_30d and the BFF's summary count it. The series groups quarter-hour buckets (rollups, plus the rows of the
 * partial quarter hours at the ends) and maps each bucket to its local day here, so the store needs no time-zone
 * support; the rankings add up 16-day and daily rollups and the rows of the partial days at the ends.
 */
export function summarize(store: MirrorStore, customerId: string, query: SummaryQuery): Promise<TransactionSummary> {
  return summarizeFrom(store, customerId, query, "rollups");
}

/**
 * The same summary, with whole periods from the rollups (`summarize`) or every sum from the rows (what the property
 * test compares against).
 */
export async function summarizeFrom(
  store: MirrorStore,
  customerId: string,
  query: SummaryQuery,
  source: SumSource,
): Promise<TransactionSummary> {
  const range = { fromMs: query.fromMs, toMs: query.toMs };
  const top = query.top ?? 5;
  const groups = await spendGroups(store, customerId, range, source);
  const topDrivers = rankByAmount(groups.drivers.map(acc), top);
  const topStations = rankByAmount(groups.stations.map(acc), top);
  const names = await namesOfTop(store, customerId, range, { drivers: topDrivers, stations: topStations });
  const { totals, daily, byStatus } = dailySeries(query, groups.buckets);
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
    products: rankByAmount(groups.products.map(acc), 10),
    byStatus,
  };
}
