"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";

import { useUrlView } from "@/components/ui/use-url-view";
import { preferredTimeZone, rememberTimeZone } from "@/lib/format/time-zone-preference";
import { UTC_ZONE } from "@/lib/model/time-zones";
import { type MirrorFilterValues, NO_MIRROR_FILTERS } from "@/lib/queries/transaction-filters";

import { type ListState, listStateProblems, parseListState, serializeListState } from "./list-state";
import { useBrowserTimeZone } from "./use-browser-time-zone";

export type FilterPatch = Partial<Pick<ListState, "range" | "from" | "to" | "status" | "search">>;

/**
 * The list's view, read from and written to the URL: a view can be bookmarked or shared, and Back/Forward move
 * between views. A deliberate change (a filter, a page) pushes a history entry, so Back returns to the previous
 * view; the debounced search replaces the entry, so typing does not fill the history with half-typed words.
 * Changes in quick succession build on each other (see useUrlView). A URL without `tz` means the zone this browser
 * remembers, else its own.
 */
export function useListState(): {
  state: ListState;
  /**
   * False on the server and while the page hydrates, where the list is shown in UTC: the browser's zone (or the one
   * it remembers) is known from the next render on. Nothing that depends on the zone is asked for before.
   */
  zoneKnown: boolean;
  /** The browser's own zone once known (see useBrowserTimeZone). */
  browserZone: string | null;
  /** What the URL asked for that the list could not show, in words. */
  problems: string[];
  /** A filter changed: back to page 1. */
  setFilters: (patch: FilterPatch, mode?: "push" | "replace") => void;
  setPage: (page: number, mode?: "push" | "replace") => void;
  setPageSize: (pageSize: ListState["pageSize"]) => void;
  /** Some of the filters only the local copy answers (the others stay): back to page 1. */
  setMirrorFilters: (patch: Partial<MirrorFilterValues>, mode?: "push" | "replace") => void;
  /** Off with every filter only the local copy answers, and its sort (when it cannot answer them). */
  clearMirrorFilters: () => void;
  /** Another order (a column header): back to page 1. */
  setSort: (sort: ListState["sort"]) => void;
  /** Another zone for days and times: remembered in this browser, back to page 1. */
  setTimeZone: (tz: string) => void;
  clearFilters: () => void;
  queryString: string;
} {
  // Read once per page view: a choice made now is in the URL already; the remembered one is for the next visit.
  const [rememberedZone] = useState(preferredTimeZone);
  const browserZone = useBrowserTimeZone();
  const zoneKnown = browserZone !== null;
  const defaultZone = zoneKnown ? rememberedZone : UTC_ZONE;
  const parse = useCallback(
    (params: Pick<URLSearchParams, "get">) => parseListState(params, defaultZone),
    [defaultZone],
  );
  const serialize = useCallback((view: ListState) => serializeListState(view, defaultZone), [defaultZone]);
  const { view: state, update } = useUrlView(parse, serialize);
  const searchParams = useSearchParams();
  const problems = useMemo(() => listStateProblems(searchParams, defaultZone), [searchParams, defaultZone]);
  const queryString = serialize(state);

  // A link with days but no zone is read in this browser's zone: the address bar says which, so a copy of it means
  // the same days elsewhere. Only `tz` is added (the rest stays as given, so what could not be read is still shown).
  const needsZone = zoneKnown && state.range !== "all" && searchParams.get("tz") === null;
  useEffect(() => {
    if (!needsZone) return;
    const params = new URLSearchParams(window.location.search);
    params.set("tz", state.tz);
    window.history.replaceState(window.history.state, "", `${window.location.pathname}?${params.toString()}`);
  }, [needsZone, state.tz]);

  return {
    state,
    zoneKnown,
    browserZone,
    problems,
    queryString,
    setFilters: (patch, mode = "push") => {
      update((current) => ({ ...current, ...patch, page: 1 }), mode);
    },
    setPage: (page, mode = "push") => {
      update((current) => ({ ...current, page }), mode);
    },
    setPageSize: (pageSize) => {
      update((current) => ({ ...current, pageSize, page: 1 }), "push");
    },
    setMirrorFilters: (patch, mode = "push") => {
      update((current) => ({ ...current, mirror: { ...current.mirror, ...patch }, page: 1 }), mode);
    },
    clearMirrorFilters: () => {
      update((current) => ({ ...current, mirror: NO_MIRROR_FILTERS, sort: null, page: 1 }), "push");
    },
    setSort: (sort) => {
      update((current) => ({ ...current, sort, page: 1 }), "push");
    },
    setTimeZone: (tz) => {
      rememberTimeZone(tz);
      update((current) => ({ ...current, tz, page: 1 }), "push");
    },
    clearFilters: () => {
      update(
        (current) => ({
          ...current,
          range: "all",
          from: null,
          to: null,
          status: null,
          search: "",
          mirror: NO_MIRROR_FILTERS,
          page: 1,
        }),
        "push",
      );
    },
  };
}
