"use client";

import { useSyncExternalStore } from "react";

/** How often ages on screen ("loaded 3 min ago") move on. */
const TICK_MS = 30_000;

function subscribe(onTick: () => void): () => void {
  const timer = setInterval(onTick, TICK_MS);
  return () => {
    clearInterval(timer);
  };
}

/** The current time, rounded down to the tick so that renders in between agree; 0 on the server. */
function snapshot(): number {
  return Math.floor(Date.now() / TICK_MS) * TICK_MS;
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot, () => 0);
}
