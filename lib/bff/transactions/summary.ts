import "server-only";

import type { Credentials, FleetApiClient } from "@/lib/fleet-api";
import {
  averagePricePerGallon,
  fromMinorUnits,
  type RankAccumulator,
  rankByAmount,
  type RankedItem,
  toMinorUnits,
  type Transaction,
  type TransactionSummary,
} from "@/lib/model";
import { countsStatus } from "@/lib/model/metrics";

import { utcDate } from "../platform/clock";

const DAY_MS = 86_400_000;

const counts = (t: Transaction) => countsStatus("charged", t.status);

/**
 * Exact totals of some transactions: how many, how many failed, and the gallons and amount of the others (failed
 * ones are not charged: the same rule as the 30-day totals). For the list's totals bar.
 */
export async function addUp(
  rows: AsyncIterable<Transaction> | Iterable<Transaction>,
): Promise<{ transactions: number; failed: number; gallons: string; amount: string }> {
  let transactions = 0;
  let failed = 0;
  let gallons = 0n;
  let amount = 0n;
  for await (const t of rows) {
    transactions++;
    if (!counts(t)) {
      failed++;
      continue;
    }
    gallons += toMinorUnits(t.gallons, 3);
    amount += toMinorUnits(t.amount, 2);
  }
  return { transactions, failed, gallons: fromMinorUnits(gallons, 3), amount: fromMinorUnits(amount, 2) };
}

type Acc = RankAccumulator;

/**
 * Totals, a daily series (every day of the range, zeros included) and top lists over a date range. Exact sums.
 * `signal` stops the walk (the page request or budget wait in flight) when nobody waits for the answer any more.
 */
export async function summarize(
  client: FleetApiClient,
  credentials: Credentials,
  range: { from: string; to: string },
  signal?: AbortSignal,
): Promise<TransactionSummary> {
  const days = new Map<string, { transactions: number; gallons: bigint; amount: bigint }>();
  for (let t = Date.parse(range.from); t <= Date.parse(range.to); t += DAY_MS)
    days.set(utcDate(t), { transactions: 0, gallons: 0n, amount: 0n });
  const drivers = new Map<string, Acc>();
  const stations = new Map<string, Acc>();
  const products = new Map<string, Acc>();
  const byStatus: Record<string, number> = { completed: 0, pending: 0, failed: 0 };
  let totalGallons = 0n;
  let totalAmount = 0n;
  let count = 0;
  const add = (map: Map<string, Acc>, id: string, name: string, detail: string | null, g: bigint, a: bigint) => {
    let acc = map.get(id);
    if (!acc) {
      acc = { id, name, detail, transactions: 0, gallons: 0n, amount: 0n };
      map.set(id, acc);
    }
    acc.transactions++;
    acc.gallons += g;
    acc.amount += a;
  };
  for await (const t of client.iterateTransactions(credentials, range, {
    priority: "bulk",
    ...(signal ? { signal } : {}),
  })) {
    byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
    if (!counts(t)) continue;
    const g = toMinorUnits(t.gallons, 3);
    const a = toMinorUnits(t.amount, 2);
    count++;
    totalGallons += g;
    totalAmount += a;
    const day = days.get(t.at.slice(0, 10));
    if (day) {
      day.transactions++;
      day.gallons += g;
      day.amount += a;
    }
    add(drivers, t.driver.id, t.driver.name, t.driver.truckId, g, a);
    add(stations, t.station.id, t.station.name, `${t.station.city}, ${t.station.state}`, g, a);
    add(products, t.product, t.product, null, g, a);
  }
  const ranked = (map: Map<string, Acc>, n: number): RankedItem[] => rankByAmount(map.values(), n);
  const average = averagePricePerGallon(totalAmount, totalGallons);
  return {
    from: range.from,
    to: range.to,
    totals: {
      transactions: count,
      gallons: fromMinorUnits(totalGallons, 3),
      amount: fromMinorUnits(totalAmount, 2),
      averagePricePerGallon: average,
    },
    daily: [...days.entries()].map(([date, d]) => ({
      date,
      transactions: d.transactions,
      gallons: fromMinorUnits(d.gallons, 3),
      amount: fromMinorUnits(d.amount, 2),
    })),
    topDrivers: ranked(drivers, 5),
    topStations: ranked(stations, 5),
    products: ranked(products, 10),
    byStatus,
  };
}
