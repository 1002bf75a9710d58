import { queryOptions, useQuery } from "@tanstack/react-query";

import type { Account } from "@/lib/model";

import { fetchJson } from "./fetch-json";

const accountQueryOptions = queryOptions({
  queryKey: ["account"] as const,
  queryFn: ({ signal }) => fetchJson<Account>("/api/account", { signal }),
});

export function useAccount() {
  return useQuery(accountQueryOptions);
}
