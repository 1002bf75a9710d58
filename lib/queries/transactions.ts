import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { ListTotals, TransactionDetail, TransactionFacetsReply, TransactionListReply } from "@/lib/model";

import { fetchJson } from "./fetch-json";
import { type ListSort, type TransactionFilterParams, writeTransactionFilters } from "./transaction-filters";

/** One page of the list, as `GET /api/transactions` takes it (see transaction-filters). */
export interface TransactionListParams extends TransactionFilterParams {
  page: number;
  limit: number;
  sort: ListSort | null;
}

/** Query keys of this file; every key under `["transactions", "list" | "detail" | "totals" | "facets"]` comes from here. */
const transactionKeys = {
  lists: () => ["transactions", "list"] as const,
  list: (params: TransactionListParams) => ["transactions", "list", params] as const,
  detail: (id: string) => ["transactions", "detail", id] as const,
  totals: (params: TransactionTotalsParams) => ["transactions", "totals", params] as const,
  facets: () => ["transactions", "facets"] as const,
};

function transactionListUrl(params: TransactionListParams): string {
  const query = new URLSearchParams({ page: String(params.page), limit: String(params.limit) });
  writeTransactionFilters(query, params, params.sort);
  return `/api/transactions?${query.toString()}`;
}

export function transactionsQueryOptions(params: TransactionListParams) {
  return queryOptions({
    queryKey: transactionKeys.list(params),
    queryFn: ({ signal }) => fetchJson<TransactionListReply>(transactionListUrl(params), { signal }),
    // The page on screen stays while the next one loads (paging, filtering): no flash of an empty table.
    placeholderData: keepPreviousData,
  });
}

function transactionQueryOptions(id: string) {
  return queryOptions({
    queryKey: transactionKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<TransactionDetail>(`/api/transactions/${encodeURIComponent(id)}`, { signal }),
  });
}

/** `initial`: the transaction the server's page already looked up (fresh for the default stale time), if any. */
export function useTransaction(id: string, initial?: TransactionDetail) {
  return useQuery({ ...transactionQueryOptions(id), initialData: initial });
}

/** The list's filters, for its totals bar (the order does not change a sum). */
export type TransactionTotalsParams = TransactionFilterParams;

function transactionTotalsUrl(params: TransactionTotalsParams): string {
  const text = writeTransactionFilters(new URLSearchParams(), params).toString();
  return text === "" ? "/api/transactions/totals" : `/api/transactions/totals?${text}`;
}

/**
 * The filtered set's totals (`GET /api/transactions/totals`). `enabled` false when the list's own total already says
 * the set is too large to add up from the provider (no request is spent on it); the local copy adds up any size.
 */
export function useTransactionTotals(params: TransactionTotalsParams, enabled: boolean) {
  return useQuery({
    queryKey: transactionKeys.totals(params),
    queryFn: ({ signal }) => fetchJson<ListTotals>(transactionTotalsUrl(params), { signal }),
    enabled,
  });
}

/** The values change only as new drivers, cards or stations appear: the local copy answers, so five minutes is plenty. */
const FACETS_STALE_TIME_MS = 5 * 60_000;

/**
 * The options of the filters only the local copy answers (`GET /api/transactions/facets`). `enabled` false until the
 * local copy can answer (see useSyncStatus): no request is spent on a list of nothing.
 */
export function useTransactionFacets(enabled: boolean) {
  return useQuery({
    queryKey: transactionKeys.facets(),
    queryFn: ({ signal }) => fetchJson<TransactionFacetsReply>("/api/transactions/facets", { signal }),
    staleTime: FACETS_STALE_TIME_MS,
    enabled,
  });
}
