"use client";

import type { Route } from "next";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseListState, serializeListState, type ListState } from "./list-state";

/**
 * The list's view, read from and written to the URL: a view can be bookmarked or shared, and Back/Forward move
 * between views. A deliberate change (a filter, a page) pushes a history entry, so Back returns to the previous
 * view; the debounced search replaces the entry, so typing does not fill the history with half-typed words.
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
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const state = useMemo(() => parseListState(searchParams), [searchParams]);
  const queryString = serializeListState(state);

  const navigate = useCallback(
    (next: ListState, mode: "push" | "replace") => {
      const query = serializeListState(next);
      const href = (query === "" ? pathname : `${pathname}?${query}`) as Route;
      if (mode === "push") router.push(href, { scroll: false });
      else router.replace(href, { scroll: false });
    },
    [pathname, router],
  );

  return {
    state,
    queryString,
    setFilters: (patch, mode = "push") => {
      navigate({ ...state, ...patch, page: 1 }, mode);
    },
    setPage: (page) => {
      navigate({ ...state, page }, "push");
    },
    setPageSize: (pageSize) => {
      navigate({ ...state, pageSize, page: 1 }, "push");
    },
    clearFilters: () => {
      navigate({ ...state, range: "all", from: null, to: null, status: null, search: "", page: 1 }, "push");
    },
  };
}
