import { type Query, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import { type BffRequestError, CSRF_HEADERS, fetchJson, requestBff } from "./fetch-json";

/** How often the shell asks where the local copy stands while the page is visible (a quiet line, not a monitor). */
export const SYNC_POLL_MS = 15_000;
/** While a sync run is in progress (after "Sync now", a backfill): often enough to see it finish. */
const SYNC_RUNNING_POLL_MS = 5_000;

const syncKey = ["sync"] as const;

/** The next poll: sooner while a run is in progress; TanStack pauses it while the page is hidden. */
function pollInterval(query: Query<SyncStatusReply, BffRequestError, SyncStatusReply, typeof syncKey>): number {
  return query.state.data?.running === true ? SYNC_RUNNING_POLL_MS : SYNC_POLL_MS;
}

const syncStatusQueryOptions = queryOptions({
  queryKey: syncKey,
  queryFn: ({ signal }) => fetchJson<SyncStatusReply>("/api/sync", { signal }),
  refetchInterval: pollInterval,
  // The BFF reads its own state (no upstream request), so a fresh answer is cheap; the poll decides how often.
  staleTime: 0,
});

/** `GET /api/sync`: where the local copy of the signed-in customer's transactions stands (shell, transactions page). */
export function useSyncStatus() {
  return useQuery(syncStatusQueryOptions);
}

/** `POST /api/sync` ("Sync now": a head sync), then the status is asked for again. */
export function useSyncNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<null> => {
      await requestBff("/api/sync", { method: "POST", headers: CSRF_HEADERS });
      return null;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: syncKey }),
  });
}
