import "server-only";

import type { Credentials, FleetApiClient, Priority } from "@/lib/fleet-api";
import { addDecimals, type SummaryTotals, type Transaction } from "@/lib/model";
import { countsStatus } from "@/lib/model/metrics";

import { utcDate } from "../platform/clock";

const DAY_MS = 86_400_000;

/** The 30-day totals of /api/account when computed here: the summary's totals without the average. */
export type Totals = Omit<SummaryTotals, "averagePricePerGallon">;

const counts = (t: Transaction) => countsStatus("charged", t.status);

/**
 * Rolling 30-day totals computed from transactions, for upstreams whose account shape has none. Same rule as the
 * upstream's totals: the 30 days up to now, completed and pending.
 */
export async function computeTotals30d(
  client: FleetApiClient,
  credentials: Credentials,
  nowMs: number,
  priority: Priority,
  signal?: AbortSignal,
): Promise<Totals> {
  const since = nowMs - 30 * DAY_MS;
  const gallons: string[] = [];
  const amounts: string[] = [];
  for await (const t of client.iterateTransactions(
    credentials,
    { from: utcDate(since), to: utcDate(nowMs) },
    { priority, ...(signal ? { signal } : {}) },
  )) {
    const at = Date.parse(t.at);
    if (at < since || at > nowMs || !counts(t)) continue;
    gallons.push(t.gallons);
    amounts.push(t.amount);
  }
  return { transactions: amounts.length, gallons: addDecimals(gallons, 3), amount: addDecimals(amounts, 2) };
}
