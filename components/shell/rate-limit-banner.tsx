"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";

import { useRateLimitState } from "@/components/providers";
import { BffRequestError } from "@/lib/queries/fetch-json";

/**
 * The page-wide banner while the Fleet Fuel API has asked us to wait (a 429 with Retry-After): a countdown, then one
 * automatic retry of exactly the queries that failed with it. Screen readers hear the wait once when it starts, not
 * every second; sighted users see the seconds tick.
 */
export function RateLimitBanner() {
  const state = useRateLimitState();
  const queryClient = useQueryClient();
  const wait = useSyncExternalStore(state.subscribe, state.getSnapshot, () => null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (wait === null) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current < wait.until) return;
      window.clearInterval(timer);
      state.clear();
      void queryClient.refetchQueries({
        type: "active",
        predicate: (query) =>
          query.state.status === "error" &&
          query.state.error instanceof BffRequestError &&
          query.state.error.status === 429,
      });
    }, 1000);
    return () => {
      window.clearInterval(timer);
    };
  }, [wait, state, queryClient]);

  // The live region holds one sentence per wait, so a screen reader hears it once; the ticking seconds sit outside it.
  const liveRegion = (
    <div role="status" className="sr-only">
      {wait === null
        ? ""
        : `The Fleet Fuel API's request limit was reached. The page will try again by itself in about ${String(Math.max(1, Math.ceil((wait.until - wait.since) / 1000)))} seconds.`}
    </div>
  );
  if (wait === null) return liveRegion;
  // `now` is from the last tick, which may predate this wait.
  const seconds = Math.max(0, Math.ceil((wait.until - Math.max(now, wait.since)) / 1000));
  return (
    <>
      {liveRegion}
      <div
        data-testid="rate-limit-banner"
        className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
      >
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 sm:px-2">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0 fill-current">
            <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm.75 4v4.19l2.78 2.78-1.06 1.06-3.22-3.22V6h1.5Z" />
          </svg>
          <p className="font-semibold">The Fleet Fuel API asked us to pause: its request limit was reached.</p>
          <p>
            {seconds > 0 ? (
              <>
                Trying again by itself in{" "}
                <span data-testid="rate-limit-seconds" className="font-semibold tabular-nums">
                  {seconds}
                </span>{" "}
                {seconds === 1 ? "second" : "seconds"}. Nothing is lost meanwhile.
              </>
            ) : (
              "Trying again now…"
            )}
          </p>
        </div>
      </div>
    </>
  );
}
