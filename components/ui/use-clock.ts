"use client";

import { useSyncExternalStore } from "react";

/**
 * The current time, moving on every `tickMs` and rounded down to it, so renders in between agree; 0 on the server and
 * while hydrating (show no age then). The stations' useNow is this at a 30 s tick; the sync status counts seconds.
 */
export function useClock(tickMs: number): number {
  const clock = clockOf(tickMs);
  return useSyncExternalStore(clock.subscribe, clock.snapshot, serverSnapshot);
}

interface Clock {
  subscribe: (onTick: () => void) => () => void;
  snapshot: () => number;
}

/** One subscribe/snapshot pair per tick length: useSyncExternalStore resubscribes whenever they change identity. */
const clocks = new Map<number, Clock>();

function clockOf(tickMs: number): Clock {
  let clock = clocks.get(tickMs);
  if (clock === undefined) {
    clock = {
      subscribe: (onTick) => {
        const timer = setInterval(onTick, tickMs);
        return () => {
          clearInterval(timer);
        };
      },
      snapshot: () => Math.floor(Date.now() / tickMs) * tickMs,
    };
    clocks.set(tickMs, clock);
  }
  return clock;
}

function serverSnapshot(): number {
  return 0;
}
