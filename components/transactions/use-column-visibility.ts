"use client";

import type { VisibilityState } from "@tanstack/react-table";

import { createLocalStore, useLocalStore } from "@/components/ui/local-store";

/** The columns' shown/hidden flags as stored: an object's boolean entries (anything else is dropped). */
function visibilityFromStored(value: unknown): VisibilityState | null {
  if (typeof value !== "object" || value === null) return null;
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, boolean] => typeof entry[1] === "boolean"),
  );
}

/** Which columns the user hid, kept in this browser across visits. */
const columnStore = createLocalStore<VisibilityState>({
  key: "ffd:transactions:columns",
  parse: visibilityFromStored,
  fallback: {},
});

export function useColumnVisibility(): [VisibilityState, (next: VisibilityState) => void] {
  // The server renders every column; the browser then applies what it remembered.
  return useLocalStore(columnStore);
}
