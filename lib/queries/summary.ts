import { queryOptions, useQuery } from "@tanstack/react-query";

import type { Page, Transaction, TransactionSummaryReply } from "@/lib/model";

import { fetchJson } from "./fetch-json";

/** The BFF's default range: the last 30 days up to today (UTC). */
const summaryQueryOptions = queryOptions({
  queryKey: ["summary", "last-30-days"] as const,
  queryFn: ({ signal }) => fetchJson<TransactionSummaryReply>("/api/transactions/summary", { signal }),
});

export function useSummary() {
  return useQuery(summaryQueryOptions);
}

export const LATEST_TRANSACTIONS_COUNT = 10;

/** The newest transactions (the upstream lists newest first), for the overview's "Latest transactions" card. */
const latestTransactionsQueryOptions = queryOptions({
  queryKey: ["overview", "latest-transactions", LATEST_TRANSACTIONS_COUNT] as const,
  queryFn: ({ signal }) =>
    fetchJson<Page<Transaction>>(`/api/transactions?limit=${String(LATEST_TRANSACTIONS_COUNT)}`, { signal }),
});

export function useLatestTransactions() {
  return useQuery(latestTransactionsQueryOptions);
}
