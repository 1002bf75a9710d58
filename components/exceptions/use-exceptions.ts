import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { ExceptionsReply } from "@/lib/model/insight-exceptions";
import { fetchJson } from "@/lib/queries/fetch-json";

/** GET /api/exceptions for a period's parameters (quarter | from & to) and a rule (or all). */
function exceptionsQueryOptions(params: URLSearchParams, rule: string | null) {
  const query = new URLSearchParams(params);
  if (rule !== null) query.set("rule", rule);
  const search = query.toString();
  return queryOptions({
    queryKey: ["exceptions", search] as const,
    queryFn: ({ signal }) =>
      fetchJson<ExceptionsReply>(`/api/exceptions${search === "" ? "" : `?${search}`}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useExceptions(params: URLSearchParams, rule: string | null) {
  return useQuery(exceptionsQueryOptions(params, rule));
}
