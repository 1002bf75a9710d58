"use client";

import { useMemo, useState } from "react";

import type { Station } from "@/lib/model";

import type { ViewBounds } from "./map/map-props";
import { buildStationsOnMap } from "./map/station-points";
import { rankCheapest, rankNearby } from "./shared/ranking";
import { filterStations, stationsInView, type StationsView as View } from "./view-state";

/**
 * What the stations page derives from the catalog and its view: the stations the filters show, what the map draws
 * (coloured against those shown or those in the map's view), the filter choices and the catalog ranking.
 */
export function useStationsData(view: View, all: readonly Station[], now: number) {
  const shown = useMemo(() => filterStations(all, view), [all, view]);
  // The map's view, for the "stations in view" colour scale (null until the map reports it).
  const [viewBounds, setViewBounds] = useState<ViewBounds | null>(null);
  const inView = useMemo(
    () => (view.scale === "view" && viewBounds !== null ? stationsInView(shown, viewBounds) : null),
    [view.scale, viewBounds, shown],
  );
  const onMap = useMemo(() => buildStationsOnMap(shown, now, inView ?? shown), [shown, now, inView]);
  const brands = useMemo(() => [...new Set(all.map((s) => s.brand))].sort(), [all]);
  const states = useMemo(() => [...new Set(all.map((s) => s.state))].sort(), [all]);
  const ranking = useMemo(
    () =>
      view.near === null ? rankCheapest(shown, view.count) : rankNearby(shown, view.near, view.radius, view.count),
    [shown, view.near, view.radius, view.count],
  );
  const unpricedCount = useMemo(() => shown.reduce((n, s) => n + (s.price === null ? 1 : 0), 0), [shown]);
  return { shown, inView, setViewBounds, onMap, brands, states, ranking, unpricedCount };
}
