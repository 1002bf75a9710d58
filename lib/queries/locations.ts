import { queryOptions, useQueries, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";

import type {
  CatalogProgress,
  Page,
  Station,
  StationDetail,
  StationPricesReply,
  StationProductsInfo,
  Transaction,
} from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";

import { type BffRequestError, fetchJson, fetchPackedJson } from "./fetch-json";

/** The whole catalog as the map uses it, with the moment it arrived in this browser (for its age and the draw measure). */
interface Catalog {
  stations: Station[];
  /** `Date.now()` when the reply was read: the catalog's age on screen. */
  receivedAt: number;
  /** `performance.now()` at the same moment: the start of the `ffd:map-draw` measure of its first draw. */
  receivedAtPerf: number;
}

/** The BFF caches the catalog 5 minutes per customer; asking sooner only returns its cache. */
const CATALOG_STALE_TIME_MS = 5 * 60_000;
/** How often the progress of a running catalog walk is asked for. */
const CATALOG_PROGRESS_INTERVAL_MS = 500;

const locationKeys = {
  catalog: () => ["locations", "catalog"] as const,
  progress: () => ["locations", "progress"] as const,
  detail: (id: string) => ["locations", "detail", id] as const,
  transactionsAt: (id: string, name: string) => ["locations", "transactions-at", id, name] as const,
  products: () => ["locations", "products"] as const,
  prices: (ids: readonly string[]) => ["locations", "prices", ids.join(",")] as const,
};

/** The BFF learns which products the station detail prices once an hour per key. */
const STATION_PRODUCTS_STALE_TIME_MS = 60 * 60_000;
/** Checked detail prices are cached by the BFF for the locations TTL (5 minutes). */
const STATION_PRICES_STALE_TIME_MS = 5 * 60_000;
/** When the BFF deferred some checks without saying when to ask again. */
const DEFERRED_RETRY_FALLBACK_MS = 10_000;

const stationProductsQueryOptions = queryOptions({
  queryKey: locationKeys.products(),
  queryFn: ({ signal }) => fetchJson<StationProductsInfo>("/api/locations/products", { signal }),
  staleTime: STATION_PRODUCTS_STALE_TIME_MS,
});

/** Which products the station detail prices (learned by the BFF from a real detail reply); asked once the catalog is in. */
export function useStationProducts(enabled: boolean) {
  return useQuery({ ...stationProductsQueryOptions, enabled });
}

function stationPricesQueryOptions(ids: readonly string[]) {
  return queryOptions({
    queryKey: locationKeys.prices(ids),
    queryFn: ({ signal }) =>
      fetchJson<StationPricesReply>(`/api/locations/prices?${new URLSearchParams({ ids: ids.join(",") }).toString()}`, {
        signal,
      }),
    staleTime: STATION_PRICES_STALE_TIME_MS,
    // Checks the BFF deferred (to leave request budget to other pages) are asked for again until they are done.
    refetchInterval: (query) => {
      const data = query.state.data;
      return data !== undefined && data.deferred.length > 0
        ? (data.retryAfterSeconds ?? DEFERRED_RETRY_FALLBACK_MS / 1000) * 1000
        : false;
    },
  });
}

export interface StationPricesState {
  /** The replies in hand, in chunk order. */
  replies: StationPricesReply[];
  /** Chunks asked for or waiting their turn. */
  pendingChunks: number;
  /** Ids the BFF deferred for budget, to be asked again by itself. */
  deferred: number;
  /** The first failure (a 429, a missing scope, an outage), if any. */
  error: BffRequestError | null;
  isRetrying: boolean;
  refetch: () => void;
}

function combinePrices(results: UseQueryResult<StationPricesReply>[]): StationPricesState {
  const replies: StationPricesReply[] = [];
  let pendingChunks = 0;
  let deferred = 0;
  let error: BffRequestError | null = null;
  for (const result of results) {
    if (result.data !== undefined) {
      replies.push(result.data);
      deferred += result.data.deferred.length;
    } else if (result.error === null) pendingChunks++;
    error ??= result.error;
  }
  return {
    replies,
    pendingChunks,
    deferred,
    error,
    isRetrying: results.some((r) => r.isError && r.isFetching),
    refetch: () => {
      for (const r of results) if (r.isError) void r.refetch();
    },
  };
}

/**
 * The detail prices of the given chunks of station ids, one BFF request per chunk, one after another (the next
 * starts when the one before has answered), so the page can say how far the checking has got and a failure stops it.
 */
export function useStationPrices(chunks: readonly (readonly string[])[]): StationPricesState {
  const queryClient = useQueryClient();
  return useQueries({
    queries: chunks.map((ids, index) => {
      const before = chunks[index - 1];
      // Read from the cache while rendering: this hook re-renders when the chunk before answers (it is one of its queries).
      const isTurn = before === undefined || queryClient.getQueryData(locationKeys.prices(before)) !== undefined;
      return { ...stationPricesQueryOptions(ids), enabled: isTurn };
    }),
    combine: combinePrices,
  });
}

const catalogQueryOptions = queryOptions({
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

function stationQueryOptions(id: string) {
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
      const query = new URLSearchParams({
        search: (name ?? "").slice(0, MAX_SEARCH_LENGTH),
        limit: String(STATION_TRANSACTIONS_SCAN),
      });
      const page = await fetchJson<Page<Transaction>>(`/api/transactions?${query.toString()}`, { signal });
      return {
        items: page.items.filter((t) => t.station.id === id),
        scanned: page.items.length,
        matchingTotal: page.total,
      };
    },
  });
}
