"use client";

import { useCallback, useMemo, useSyncExternalStore } from "react";

import type { TruckProfile } from "@/lib/route";

import { parseStoredTruck } from "./route-truck";

/** The Route mode's truck in this browser's localStorage (like the transactions' column choice). */

const STORAGE_KEY = "ffd:route:truck";
const listeners = new Set<() => void>();
/** Used only when storage is blocked (privacy settings): the truck is kept for this page load. */
let memoryValue: string | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? memoryValue;
  } catch {
    return memoryValue;
  }
}

/** This browser's truck (the defaults until one is saved) and how to save another. */
export function useStoredTruck(): [TruckProfile, (truck: TruckProfile) => void] {
  // The server renders the defaults; the browser then applies what it remembered.
  const raw = useSyncExternalStore(subscribe, readStored, () => null);
  const truck = useMemo(() => parseStoredTruck(raw), [raw]);
  const save = useCallback((next: TruckProfile) => {
    memoryValue = JSON.stringify(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, memoryValue);
    } catch {
      // Storage blocked: remembered in memory only.
    }
    for (const listener of listeners) listener();
  }, []);
  return [truck, save];
}
