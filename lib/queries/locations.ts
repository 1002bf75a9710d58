import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CatalogProgress, Page, Station, StationDetail, Transaction } from "@/lib/model";
import { fetchJson, fetchPackedJson } from "./fetch-json";

/** The whole catalog as the map uses it, with the moment it arrived in this browser (for its age and the draw measure). */
export interface Catalog {
  stations: Station[];
  /** `Date.now()` when the reply was read: the catalog's age on screen. */
  receivedAt: number;
  /** `performance.now()` at the same moment: the start of the `ffd:map-draw` measure of its first draw. */
  receivedAtPerf: number;
}

/** The BFF caches the catalog 5 minutes per customer; asking sooner only returns its cache. */
export const CATALOG_STALE_TIME_MS = 5 * 60_000;
/** How often the progress of a running catalog walk is asked for. */
export const CATALOG_PROGRESS_INTERVAL_MS = 500;

export const locationKeys = {
  catalog: () => ["locations", "catalog"] as const,
  progress: () => ["locations", "progress"] as const,
  detail: (id: string) => ["locations", "detail", id] as const,
  transactionsAt: (id: string, name: string) => ["locations", "transactions-at", id, name] as const,
};

export const catalogQueryOptions = queryOptions({
  queryKey: locationKeys.catalog(),
  queryFn: async ({ signal }): Promise<Catalog> => {
    const page = await fetchPackedJson<Page<Station>>("/api/locations?all=1", { signal });
    return { stations: page.items, receivedAt: Date.now(), receivedAtPerf: performance.now() };
  },
  staleTime: CATALOG_STALE_TIME_MS,
});

export function useCatalog() {
  return useQuery(catalogQueryOptions);
}

/** Polls the catalog walk's progress while `isLoading` (the catalog request is on its way). */
export function useCatalogProgress(isLoading: boolean) {
  return useQuery({
    queryKey: locationKeys.progress(),
    queryFn: ({ signal }) => fetchJson<CatalogProgress>("/api/locations/progress", { signal }),
    enabled: isLoading,
    refetchInterval: isLoading ? CATALOG_PROGRESS_INTERVAL_MS : false,
    staleTime: 0,
    gcTime: 0,
    // A missed progress answer is not worth a retry: the next poll comes in half a second.
    retry: false,
  });
}

export function stationQueryOptions(id: string) {
  return queryOptions({
    queryKey: locationKeys.detail(id),
    queryFn: ({ signal }) => fetchJson<StationDetail>(`/api/locations/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useStation(id: string) {
  return useQuery(stationQueryOptions(id));
}

/** How many of the newest transactions matching the station's name are read to find those at the station. */
export const STATION_TRANSACTIONS_SCAN = 200;

/**
 * This fleet's recent transactions at one station. The spec's transaction list cannot filter by station; its `search`
 * matches station names (and driver names, card digits). So: search by the station's name (one page of the newest
 * 200), then keep exactly the rows whose `station.id` is this station's — a name can be part of another station's
 * name ("#12" in "#123") or a driver's.
 */
export function useTransactionsAtStation(id: string, name: string | null) {
  return useQuery({
    queryKey: locationKeys.transactionsAt(id, name ?? ""),
    enabled: name !== null && name !== "",
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ search: (name ?? "").slice(0, 100), limit: String(STATION_TRANSACTIONS_SCAN) });
      const page = await fetchJson<Page<Transaction>>(`/api/transactions?${query.toString()}`, { signal });
      return { items: page.items.filter((t) => t.station.id === id), scanned: page.items.length, matchingTotal: page.total };
    },
  });
}
