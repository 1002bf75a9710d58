import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { ExceptionGroup, ExceptionRuleId, ExceptionsReply } from "@/lib/model/insight-exceptions";
import { fetchJson } from "@/lib/queries/fetch-json";

/** Which hits the page shows: a rule (or all), a grouping (or none) and the page of hits (from 1). */
export interface HitsView {
  rule: ExceptionRuleId | null;
  group: ExceptionGroup | null;
  page: number;
}

/** GET /api/exceptions for a period's parameters (quarter | from & to) and the hits asked for. */
function exceptionsQueryOptions(params: URLSearchParams, view: HitsView) {
  const query = new URLSearchParams(params);
  for (const name of ["rule", "group", "page"]) query.delete(name);
  if (view.rule !== null) query.set("rule", view.rule);
  if (view.group !== null) query.set("group", view.group);
  if (view.page !== 1) query.set("page", String(view.page));
  const search = query.toString();
  return queryOptions({
    queryKey: ["exceptions", search] as const,
    queryFn: ({ signal }) =>
      fetchJson<ExceptionsReply>(`/api/exceptions${search === "" ? "" : `?${search}`}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useExceptions(params: URLSearchParams, view: HitsView) {
  return useQuery(exceptionsQueryOptions(params, view));
}
