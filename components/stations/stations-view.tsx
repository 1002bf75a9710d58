"use client";

import { type RefObject, useCallback, useDeferredValue, useRef, useState } from "react";

import type { Station } from "@/lib/model";
import { useCatalog, useCatalogProgress } from "@/lib/queries/locations";

import { StationFilters } from "./filters";
import { useRouteMode } from "./route-planner/route-mode";
import { RouteResults } from "./route-planner/route-panel-lazy";
import { type LatLng, pointLabel } from "./shared/lat-lng";
import { useProductMode } from "./shared/use-product-mode";
import { LegendCard, MapColumn, SidePanel, STATIONS_COLUMNS_CLASSES } from "./stations-columns";
import { CatalogError, CatalogLoading, CatalogStatus } from "./stations-status";
import { useStationsData } from "./use-stations-data";
import { useStationsView } from "./use-stations-view";
import type { ColourScale, StationsView as View } from "./view-state";

const EMPTY: readonly Station[] = [];

export interface StationsViewProps {
  /** The tile URL template (TILE_URL), handed over by the server page; null: the vector basemap only. */
  tileUrl: string | null;
  tileAttribution: string | null;
}

type SetView = ReturnType<typeof useStationsView>["setView"];

/** The page's reactions to the map and the list; selecting is exploring, so it replaces the history entry. */
function useStationsActions(setView: SetView, mapBox: RefObject<HTMLDivElement | null>) {
  const onDrawn = useCallback(
    (count: number) => {
      mapBox.current?.setAttribute("data-drawn-count", String(count));
    },
    [mapBox],
  );
  const onPickPoint = useCallback(
    (point: LatLng) => {
      setView({ near: point, nearLabel: pointLabel(point) }, "replace");
    },
    [setView],
  );
  // Back leaves the page's view, not each station clicked.
  const onSelect = useCallback(
    (id: string | null) => {
      setView({ selected: id }, "replace");
    },
    [setView],
  );
  const onScaleChange = useCallback(
    (scale: ColourScale) => {
      setView({ scale });
    },
    [setView],
  );
  // A row chosen in the ranked list: its popup opens on the map, so the map comes into view (on narrow screens it is
  // above the list; on wide ones it stays in view by itself: the sticky MapColumn of stations-columns.tsx).
  const onSelectFromList = useCallback(
    (id: string) => {
      onSelect(id);
      mapBox.current?.scrollIntoView({ block: "nearest" });
    },
    [onSelect, mapBox],
  );
  return { onDrawn, onPickPoint, onSelect, onScaleChange, onSelectFromList };
}

/**
 * The stations page: the whole catalog on a map coloured by price (relative classes of what is shown), filters in the
 * URL, "cheapest near here" as a ranked table, and the catalog's loading progress, age and refresh failures.
 */
export function StationsView({ tileUrl, tileAttribution }: StationsViewProps) {
  const { view, setView } = useStationsView();
  const catalog = useCatalog();
  // The catalog's thousands of stations reach the page through a deferred value: React renders what they change
  // (filters, ranking, legend, map) in a background pass that yields to the browser every few milliseconds, where the
  // query's own update would render it all in one long task (it arrives through useSyncExternalStore, which renders
  // synchronously). Until that pass is done the loading state stays up.
  const catalogData = useDeferredValue(catalog.data);
  const progress = useCatalogProgress(catalog.isPending);
  const [tilesFailed, onTilesFailed] = useTilesFailed();
  const mapBox = useRef<HTMLDivElement>(null);
  const all = catalogData?.stations ?? EMPTY;
  const now = catalogData?.receivedAt ?? 0;
  const data = useStationsData(view, all, now);
  const { shown, onMap } = data;
  const { isRoute, product, routeMode } = usePanelModes(view, setView, shown, catalogData !== undefined);
  const actions = useStationsActions(setView, mapBox);
  const selected = view.selected === null ? null : (shown.find((s) => s.id === view.selected) ?? null);

  if (catalog.isError && catalog.data === undefined) return <CatalogError catalog={catalog} />;
  if (catalogData === undefined) return <CatalogLoading progress={progress.data ?? null} />;
  return (
    <div className="space-y-4">
      {/* Printing the route's summary leaves the rest of the page out. */}
      <div className={`space-y-4 ${isRoute ? "print:hidden" : ""}`}>
        <StationFilters
          view={view}
          brands={data.brands}
          states={data.states}
          products={product.products}
          onChange={setView}
        />
        <CatalogStatus catalog={catalog} shownCount={shown.length} totalCount={all.length} tilesFailed={tilesFailed} />
        <div className={STATIONS_COLUMNS_CLASSES}>
          <MapColumn
            mapBox={mapBox}
            selected={selected}
            map={{
              stations: shown,
              points: onMap.points,
              scale: onMap.scale,
              dataReadyAt: onMap.readyAt,
              staleIds: onMap.staleIds,
              selectedId: selected?.id ?? null,
              onSelect: actions.onSelect,
              near: isRoute ? null : view.near,
              radiusMiles: view.radius,
              state: isRoute ? null : view.state,
              onPickPoint: isRoute ? routeMode.onPickPoint : actions.onPickPoint,
              onViewChange: data.setViewBounds,
              onDrawn: actions.onDrawn,
              tileUrl,
              tileAttribution,
              onTilesFailed,
              tilesFailed,
              now,
              describeProduct: isRoute ? null : product.describeProduct,
              route: isRoute ? routeMode.overlay : null,
            }}
            legend={<LegendCard view={view} data={data} product={product} onScaleChange={actions.onScaleChange} />}
          />
          <SidePanel
            view={view}
            setView={setView}
            shown={shown}
            data={data}
            product={product}
            routeMode={routeMode}
            selectedId={selected?.id ?? null}
            onSelect={actions.onSelectFromList}
            now={now}
          />
        </div>
      </div>
      {isRoute ? (
        <RouteResults
          state={routeMode}
          productMode={product.productMode}
          selectedId={selected?.id ?? null}
          onSelect={actions.onSelectFromList}
        />
      ) : null}
    </div>
  );
}

/** Another product than diesel, and the Route mode (which ranks along a route instead of near a point). */
function usePanelModes(view: View, setView: SetView, shown: readonly Station[], isCatalogLoaded: boolean) {
  const isRoute = view.mode === "route";
  // In Route mode the near point asks nothing: no detail price is checked for it.
  const product = useProductMode(isRoute ? { ...view, near: null } : view, shown, isCatalogLoaded);
  const routeMode = useRouteMode(view, setView, shown, product.isProductReady);
  return { isRoute, product, routeMode };
}

/** Whether the tile server failed (the vector basemap then stands alone), and the map's report of it. */
function useTilesFailed(): [boolean, () => void] {
  const [tilesFailed, setTilesFailed] = useState(false);
  const onTilesFailed = useCallback(() => {
    setTilesFailed(true);
  }, []);
  return [tilesFailed, onTilesFailed];
}
