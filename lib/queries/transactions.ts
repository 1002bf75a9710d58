import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { ListTotals, TransactionDetail, TransactionListReply, TransactionStatus } from "@/lib/model";

import { fetchJson } from "./fetch-json";

/** One page of the list, as `GET /api/transactions` takes it: dates are days of `tz`, both ends inclusive. */
export interface TransactionListParams {
  page: number;
  limit: number;
  from: string | null;
  to: string | null;
  tz: string;
  status: TransactionStatus | null;
  search: string;
}

/** Query keys of this file; every key under `["transactions", "list" | "detail" | "totals"]` comes from here. */
const transactionKeys = {
  lists: () => ["transactions", "list"] as const,
  list: (params: TransactionListParams) => ["transactions", "list", params] as const,
  detail: (id: string) => ["transactions", "detail", id] as const,
  totals: (params: TransactionTotalsParams) => ["transactions", "totals", params] as const,
};

function transactionListUrl(params: TransactionListParams): string {
  const query = new URLSearchParams({ page: String(params.page), limit: String(params.limit) });
  if (params.from !== null) query.set("from", params.from);
  if (params.to !== null) query.set("to", params.to);
  if (params.from !== null || params.to !== null) query.set("tz", params.tz);
  if (params.status !== null) query.set("status", params.status);
  if (params.search !== "") query.set("search", params.search);
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

export function useTransaction(id: string) {
  return useQuery(transactionQueryOptions(id));
}

/** The list's filters alone, for its totals bar. */
export type TransactionTotalsParams = Omit<TransactionListParams, "page" | "limit">;

function transactionTotalsUrl(params: TransactionTotalsParams): string {
  const query = new URLSearchParams();
  if (params.from !== null) query.set("from", params.from);
  if (params.to !== null) query.set("to", params.to);
  if (params.from !== null || params.to !== null) query.set("tz", params.tz);
  if (params.status !== null) query.set("status", params.status);
  if (params.search !== "") query.set("search", params.search);
  const text = query.toString();
  return text === "" ? "/api/transactions/totals" : `/api/transactions/totals?${text}`;
}

/**
 * The filtered set's totals (`GET /api/transactions/totals`). `enabled` false when the list's own total already says
 * the set is too large to add up (no request is spent on it).
 */
export function useTransactionTotals(params: TransactionTotalsParams, enabled: boolean) {
  return useQuery({
    queryKey: transactionKeys.totals(params),
    queryFn: ({ signal }) => fetchJson<ListTotals>(transactionTotalsUrl(params), { signal }),
    enabled,
  });
}
