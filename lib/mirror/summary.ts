import {
  averagePricePerGallon,
  fromMinorUnits,
  type RankAccumulator,
  rankByAmount,
  type RankedItem,
  TRANSACTION_STATUSES,
  type TransactionSummary,
} from "@/lib/model";

import { dailySums, type DaySum } from "./daily-sums";
import { dayName, localDayNumberOf } from "./local-days";
import { groupSums, type GroupTotal, type SumSource } from "./rollup-reads";
import type { MirrorStore } from "./store";
import type { InstantRange, StatusCounts } from "./types";

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

/** Sums per local day and per driver, station and product: the summary's queries. */
async function spendGroups(store: MirrorStore, customerId: string, query: SummaryQuery, source: SumSource) {
  const range = { fromMs: query.fromMs, toMs: query.toMs };
  const dayOf = localDayNumberOf(query.timeZone);
  // No rankings asked for (top 0: the overview ranks by local date, lib/bff/mirror-serve/summary): no sums per
  // driver and station either (2,500 stations over a year are tens of thousands of rollup rows).
  const ranked = query.top !== 0;
  const [days, drivers, stations, products] = await Promise.all([
    dailySums(store, customerId, range, dayOf, source),
    ranked ? groupSums(store, customerId, "driver", range, source) : [],
    ranked ? groupSums(store, customerId, "station", range, source) : [],
    groupSums(store, customerId, "product", range, source),
  ]);
  return { days, drivers, stations, products };
}

/**
 * Names only for the ranked few, from each one's latest row in the range (newest first, then id: the mirror's order):
 * driver name and truck, station name and place. One indexed lookup each (customer, driver or station, time).
 */
async function namesOfTop(
  store: MirrorStore,
  customerId: string,
  range: Range,
  top: { drivers: RankedItem[]; stations: RankedItem[] },
) {
  const latest = (column: "driver_id" | "station_id", id: string) =>
    store.db
      .selectFrom("mirror_transactions")
      .select(["driver_name", "truck_id", "station_name", "station_city", "station_state"])
      .where("customer_id", "=", customerId)
      .where(column, "=", id)
      .where("at_ms", ">=", range.fromMs)
      .where("at_ms", "<", range.toMs)
      .orderBy("at_ms", "desc")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
  const [drivers, stations] = await Promise.all([
    Promise.all(top.drivers.map(async (d) => [d.id, await latest("driver_id", d.id)] as const)),
    Promise.all(top.stations.map(async (st) => [st.id, await latest("station_id", st.id)] as const)),
  ]);
  return { drivers: new Map(drivers), stations: new Map(stations) };
}

interface DayTotals {
  transactions: number;
  gallons: bigint;
  amount: bigint;
}

const zero = (): DayTotals => ({ transactions: 0, gallons: 0n, amount: 0n });

/** Totals, counts per status and the daily series (every local day of the range; days without spend stay zero). */
function dailySeries(query: SummaryQuery, sums: ReadonlyMap<number, DaySum>) {
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
  for (const [dayNumber, s] of sums) {
    byStatus.completed += s.completed;
    byStatus.pending += s.pending;
    byStatus.failed += s.failed;
    totals.transactions += s.spendN;
    totals.gallons += s.gallons;
    totals.amount += s.amount;
    const day = days.get(dayNumber);
    if (day) {
      day.transactions += s.spendN;
      day.gallons += s.gallons;
      day.amount += s.amount;
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
  const groups = await spendGroups(store, customerId, query, source);
  const topDrivers = rankByAmount(groups.drivers.map(acc), top);
  const topStations = rankByAmount(groups.stations.map(acc), top);
  const names = await namesOfTop(store, customerId, range, { drivers: topDrivers, stations: topStations });
  const { totals, daily, byStatus } = dailySeries(query, groups.days);
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
      name: names.drivers.get(d.id)?.driver_name ?? d.id,
      detail: names.drivers.get(d.id)?.truck_id ?? null,
    })),
    topStations: topStations.map((st) => {
      const named = names.stations.get(st.id);
      return {
        ...st,
        name: named?.station_name ?? st.id,
        detail: named ? `${named.station_city}, ${named.station_state}` : null,
      };
    }),
    products: rankByAmount(groups.products.map(acc), 10),
    byStatus,
  };
}
