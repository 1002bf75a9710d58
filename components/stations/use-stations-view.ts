"use client";

import { useCallback } from "react";

import { useUrlView } from "@/components/ui/use-url-view";

import { parseView, serializeView, type StationsView } from "./view-state";

/**
 * The stations page's view in the URL (shareable, Back/Forward move between views). A deliberate change pushes a
 * history entry; the debounced search and map clicks replace it, so typing or exploring does not fill the history.
 */
export function useStationsView(): {
  view: StationsView;
  setView: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
} {
  const { view, update } = useUrlView(parseView, serializeView);
  const setView = useCallback(
    (patch: Partial<StationsView>, mode: "push" | "replace" = "push") => {
      update((current) => ({ ...current, ...patch }), mode);
    },
    [update],
  );
  return { view, setView };
}
