"use client";

import type { VisibilityState } from "@tanstack/react-table";
import { useCallback, useMemo, useSyncExternalStore } from "react";

/** Which columns the user hid, kept in this browser across visits. */
const STORAGE_KEY = "ffd:transactions:columns";
const listeners = new Set<() => void>();
/** Used only when storage is blocked (privacy settings): the toggle still works for this page load. */
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
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return memoryValue;
  }
}

function parseVisibility(raw: string | null): VisibilityState {
  if (raw === null) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, boolean] => typeof entry[1] === "boolean"),
    );
  } catch {
    return {};
  }
}

export function useColumnVisibility(): [VisibilityState, (next: VisibilityState) => void] {
  // The server renders every column; the browser then applies what it remembered.
  const raw = useSyncExternalStore(subscribe, readStored, () => null);
  const visibility = useMemo(() => parseVisibility(raw), [raw]);
  const setVisibility = useCallback((next: VisibilityState) => {
    memoryValue = JSON.stringify(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, memoryValue);
    } catch {
      // Storage blocked: remembered in memory only.
    }
    for (const listener of listeners) listener();
  }, []);
  return [visibility, setVisibility];
}
