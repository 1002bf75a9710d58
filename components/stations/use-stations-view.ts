"use client";

import type { Route } from "next";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseView, serializeView, type StationsView } from "./view-state";

/**
 * The stations page's view in the URL (shareable, Back/Forward move between views). A deliberate change pushes a
 * history entry; the debounced search and map clicks replace it, so typing or exploring does not fill the history.
 */
export function useStationsView(): { view: StationsView; setView: (patch: Partial<StationsView>, mode?: "push" | "replace") => void } {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = useMemo(() => parseView(searchParams), [searchParams]);
  const setView = useCallback(
    (patch: Partial<StationsView>, mode: "push" | "replace" = "push") => {
      const query = serializeView({ ...view, ...patch });
      const href = (query === "" ? pathname : `${pathname}?${query}`) as Route;
      if (mode === "push") router.push(href, { scroll: false });
      else router.replace(href, { scroll: false });
    },
    [pathname, router, view],
  );
  return { view, setView };
}
