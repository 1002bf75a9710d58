import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Page, Transaction } from "@/lib/model";
import { fetchJson } from "./fetch-json";

/*
 * Browser-side copies of what `GET /api/transactions/summary` answers (the server types live in lib/bff/summary.ts,
 * which is server-only). Decimals are exact strings: gallons to 3 places, amounts to 2.
 */

export interface SummaryTotals {
  transactions: number;
  gallons: string;
  amount: string;
  /** Null when no fuel was bought in the range. */
  averagePricePerGallon: string | null;
}

export interface SummaryDay {
  /** A UTC calendar day, YYYY-MM-DD. */
  date: string;
  transactions: number;
  gallons: string;
  amount: string;
}

export interface RankedItem {
  id: string;
  name: string;
  /** A driver's truck, a station's "City, ST"; null when there is none. */
  detail: string | null;
  transactions: number;
  gallons: string;
  amount: string;
}

export interface TransactionSummary {
  from: string;
  to: string;
  /** Completed and pending transactions (failed ones are not spend). */
  totals: SummaryTotals;
  /** Every day of the range, oldest first, zeros included. */
  daily: SummaryDay[];
  topDrivers: RankedItem[];
  topStations: RankedItem[];
  products: RankedItem[];
  byStatus: Record<string, number>;
}

/** The BFF's default range: the last 30 days up to today (UTC). */
export const summaryQueryOptions = queryOptions({
  queryKey: ["summary", "last-30-days"] as const,
  queryFn: ({ signal }) => fetchJson<TransactionSummary>("/api/transactions/summary", { signal }),
});

export function useSummary() {
  return useQuery(summaryQueryOptions);
}

export const LATEST_TRANSACTIONS_COUNT = 10;

/** The newest transactions (the upstream lists newest first), for the overview's "Latest transactions" card. */
export const latestTransactionsQueryOptions = queryOptions({
  queryKey: ["overview", "latest-transactions", LATEST_TRANSACTIONS_COUNT] as const,
  queryFn: ({ signal }) => fetchJson<Page<Transaction>>(`/api/transactions?limit=${String(LATEST_TRANSACTIONS_COUNT)}`, { signal }),
});

export function useLatestTransactions() {
  return useQuery(latestTransactionsQueryOptions);
}
