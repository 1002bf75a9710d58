import { keepPreviousData, useQuery } from "@tanstack/react-query";

import type { Page, Transaction } from "@/lib/model";
import type { DrilldownDetailReply, DrilldownDimension, DrilldownListReply } from "@/lib/model/insight-drilldowns";
import type { LocalDateRange } from "@/lib/model/insights";
import { fetchJson } from "@/lib/queries/fetch-json";

import { DIMENSIONS, transactionsQuery } from "./dimensions";

/** The ranked list of a dimension for the page's period (the range picker's parameters). */
export function useDrilldownList(dimension: Exclude<DrilldownDimension, "station">, params: URLSearchParams) {
  const query = params.toString();
  return useQuery({
    queryKey: ["drilldown", dimension, "list", query] as const,
    queryFn: ({ signal }) =>
      fetchJson<DrilldownListReply>(`${DIMENSIONS[dimension].listApi ?? ""}${query ? `?${query}` : ""}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One key's detail for the page's period. */
export function useDrilldownDetail(dimension: DrilldownDimension, key: string, params: URLSearchParams) {
  const query = params.toString();
  return useQuery({
    queryKey: ["drilldown", dimension, "detail", key, query] as const,
    queryFn: ({ signal }) =>
      fetchJson<DrilldownDetailReply>(`${DIMENSIONS[dimension].detailApi(key)}${query ? `?${query}` : ""}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The first rows behind a key's figures (the newest 10 of the transactions list with the same filters). */
export function useDrilldownTransactions(dimension: DrilldownDimension, key: string, range: LocalDateRange | null) {
  const query = range === null ? "" : `${transactionsQuery(dimension, key, range).toString()}&limit=10`;
  return useQuery({
    queryKey: ["drilldown", dimension, "transactions", key, query] as const,
    queryFn: ({ signal }) => fetchJson<Page<Transaction>>(`/api/transactions?${query}`, { signal }),
    enabled: range !== null,
  });
}
