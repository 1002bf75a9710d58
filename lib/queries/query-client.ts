import { QueryCache, QueryClient } from "@tanstack/react-query";

import { BffRequestError } from "./fetch-json";
import { RateLimitState } from "./rate-limit";

// Every query function goes through fetchJson, which turns every failure into a BffRequestError.
declare module "@tanstack/react-query" {
  interface Register {
    defaultError: BffRequestError;
  }
}

/** The BFF caches account data 20–60 s itself; refetching sooner than this would only hit its cache. */
const DEFAULT_STALE_TIME_MS = 30_000;
/** Retries on top of the BFF's own: it already retried the upstream, so a couple more tries at most. */
const MAX_QUERY_RETRIES = 2;
/** No answer at all (0), or the BFF could not reach the upstream (502) or is briefly unavailable (503). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([0, 502, 503]);

/**
 * Retry only what another try can fix. Never a 4xx: a wrong filter, a missing scope or a 401 stay wrong. Never a 429:
 * the BFF already waited and retried within the request budget; the page shows the wait instead.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_QUERY_RETRIES && error instanceof BffRequestError && RETRYABLE_STATUSES.has(error.status);
}

/**
 * A 429 from any query starts the page's one shared wait (`rateLimit`), which the dashboard's banner counts down
 * before retrying the queries that failed with it.
 */
export function createQueryClient(rateLimit: RateLimitState = new RateLimitState()): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof BffRequestError && error.status === 429) rateLimit.note(error.retryAfterSeconds);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: DEFAULT_STALE_TIME_MS,
        retry: shouldRetryQuery,
        // Focus changes are frequent (switching tabs to a spreadsheet and back); each refetch spends request budget.
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
