import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { SavingsReply } from "@/lib/model/insight-savings";

import { fetchJson } from "./fetch-json";

/** Whose fills: the whole fleet, one driver's or one station's. */
export type SavingsScope = Record<string, never> | { driver: string } | { station: string };

/** `GET /api/savings` for a range (the insight range picker's query: quarter, or from and to; none: 30 days). */
export function savingsQueryOptions(scope: SavingsScope, range: Readonly<Record<string, string>>) {
  const query = new URLSearchParams({ ...range, ...scope });
  query.sort();
  const search = query.toString();
  return queryOptions({
    queryKey: ["savings", search] as const,
    queryFn: ({ signal }) => fetchJson<SavingsReply>(`/api/savings${search === "" ? "" : `?${search}`}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSavings(scope: SavingsScope, range: Readonly<Record<string, string>>) {
  return useQuery(savingsQueryOptions(scope, range));
}
