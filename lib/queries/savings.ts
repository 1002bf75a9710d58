import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import type { SavingsReply } from "@/lib/model/insight-savings";

import { BffRequestError, fetchJson } from "./fetch-json";
import { useSyncStatus } from "./sync";

/** Whose fills: the whole fleet, one driver's or one station's. */
export type SavingsScope = Record<string, never> | { driver: string } | { station: string };

const MIRROR_WAIT_MS = 10_000;
const CATALOG_WAIT_MS = 3_000;

/** The BFF's 409: the figures need the local copy of the transactions, which this session cannot read (yet). */
export const isMirrorNeeded = (error: unknown): error is BffRequestError =>
  error instanceof BffRequestError && error.code === "mirror_needed";

/** `GET /api/savings` for a range (the insight range picker's query: quarter, or from and to; none: 30 days). */
export function savingsQueryOptions(scope: SavingsScope, range: Readonly<Record<string, string>>) {
  const query = new URLSearchParams({ ...range, ...scope });
  query.sort();
  const search = query.toString();
  return queryOptions({
    queryKey: ["savings", search] as const,
    queryFn: ({ signal }) => fetchJson<SavingsReply>(`/api/savings${search === "" ? "" : `?${search}`}`, { signal }),
    placeholderData: keepPreviousData,
    // Right after sign-in the local copy is not readable until its first head sync (a 409): ask again shortly.
    // The catalog is walked in the background the first time: ask again until it is recorded; likewise while the
    // fills are still being compared with it.
    refetchInterval: (query) =>
      isMirrorNeeded(query.state.error)
        ? MIRROR_WAIT_MS
        : query.state.data?.catalog.state === "loading" || (query.state.data?.comparing ?? null) !== null
          ? CATALOG_WAIT_MS
          : false,
  });
}

/**
 * The savings of a scope, asked once GET /api/sync (the shell's own query) has said there is a local copy: with the
 * mirror off on this server the BFF could only answer 409, which the browser logs as a failed request (Lighthouse's
 * best practices counted it on the overview). `isMirrorOff`: not asked, for that reason.
 */
export function useSavings(scope: SavingsScope, range: Readonly<Record<string, string>>) {
  const sync = useSyncStatus();
  const isMirrorOff = sync.data?.state === "off";
  // Asked as soon as the status is known, or if it cannot be (the BFF then says why itself).
  const query = useQuery({ ...savingsQueryOptions(scope, range), enabled: !isMirrorOff && !sync.isPending });
  return { ...query, isMirrorOff };
}
