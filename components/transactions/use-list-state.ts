"use client";

import { useUrlView } from "@/components/navigation/use-url-view";
import { parseListState, serializeListState, type ListState } from "./list-state";

/**
 * The list's view, read from and written to the URL: a view can be bookmarked or shared, and Back/Forward move
 * between views. A deliberate change (a filter, a page) pushes a history entry, so Back returns to the previous
 * view; the debounced search replaces the entry, so typing does not fill the history with half-typed words.
 * Changes in quick succession build on each other (see useUrlView).
 */
export function useListState(): {
  state: ListState;
  /** A filter changed: back to page 1. */
  setFilters: (patch: Partial<Pick<ListState, "range" | "from" | "to" | "status" | "search">>, mode?: "push" | "replace") => void;
  setPage: (page: number) => void;
  setPageSize: (pageSize: ListState["pageSize"]) => void;
  clearFilters: () => void;
  queryString: string;
} {
  const { view: state, update } = useUrlView(parseListState, serializeListState);
  const queryString = serializeListState(state);

  return {
    state,
    queryString,
    setFilters: (patch, mode = "push") => {
      update((current) => ({ ...current, ...patch, page: 1 }), mode);
    },
    setPage: (page) => {
      update((current) => ({ ...current, page }), "push");
    },
    setPageSize: (pageSize) => {
      update((current) => ({ ...current, pageSize, page: 1 }), "push");
    },
    clearFilters: () => {
      update((current) => ({ ...current, range: "all", from: null, to: null, status: null, search: "", page: 1 }), "push");
    },
  };
}
