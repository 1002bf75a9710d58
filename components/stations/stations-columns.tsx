"use client";

import type { ReactNode, RefObject } from "react";

import { Card } from "@/components/ui/card";
import type { Station } from "@/lib/model";

import { PriceLegend } from "./map/legend";
import type { MapInnerProps } from "./map/map-props";
import { StationMap } from "./map/station-map";
import { NearbyPanel } from "./nearby/nearby-panel";
import { RouteModeSwitch } from "./route-mode-switch";
import type { RouteModeState } from "./route-planner/route-mode";
import { RoutePanel } from "./route-planner/route-panel-lazy";
import { productName } from "./shared/product-ranking";
import type { useProductMode } from "./shared/use-product-mode";
import type { useStationsData } from "./use-stations-data";
import type { useStationsView } from "./use-stations-view";
import type { ColourScale, StationsView as View } from "./view-state";

type SetView = ReturnType<typeof useStationsView>["setView"];

/**
 * The page's two columns (issue 26 item 2). On a wide screen the map and "cheapest near here" (or the Route mode) share
 * the first screen side by side, the legend under the map, so neither column is mostly empty: the map's column is
 * about as tall as the panel's, and sticky, so scrolling down a long ranking keeps the map and the chosen station's
 * popup in view. On a phone they stack in the same order (map, legend, panel): the map is what the legend explains,
 * and choosing a row of the ranking scrolls the map back into view above it.
 */
export const STATIONS_COLUMNS_CLASSES = "grid gap-6 lg:grid-cols-5";

/** The map and its legend; sticky on wide screens. */
export function MapColumn({
  mapBox,
  selected,
  map,
  legend,
}: {
  mapBox: RefObject<HTMLDivElement | null>;
  selected: Station | null;
  map: MapInnerProps;
  legend: ReactNode;
}) {
  return (
    <div className="min-w-0 space-y-4 lg:sticky lg:top-4 lg:col-span-3 lg:self-start" data-testid="map-column">
      <div
        ref={mapBox}
        data-testid="station-map"
        role="region"
        aria-label="Map of the stations shown, coloured by price. The ranked list beside it gives the same stations as text."
        className="ffd-station-map relative h-[60vh] min-h-[24rem] w-full rounded-xl border border-slate-200 dark:border-slate-800"
      >
        <StationMap {...map} />
      </div>
      <p className="sr-only" aria-live="polite">
        {selected === null ? "" : `Selected ${selected.name}, ${selected.city}, ${selected.state}.`}
      </p>
      {legend}
    </div>
  );
}

export function LegendCard({
  view,
  data,
  product,
  onScaleChange,
}: {
  view: View;
  data: ReturnType<typeof useStationsData>;
  product: ReturnType<typeof useProductMode>;
  onScaleChange: (scale: ColourScale) => void;
}) {
  return (
    // Printing the route's summary leaves the legend out.
    <div className={view.mode === "route" ? "print:hidden" : undefined}>
      <Card title="Price legend">
        <PriceLegend
          scale={data.onMap.scale}
          staleCount={data.onMap.staleIds.size}
          unpricedCount={data.unpricedCount}
          rankedProduct={product.isProductReady ? productName(view.product) : null}
          colourScale={view.scale}
          onColourScaleChange={onScaleChange}
          shownCount={data.shown.length}
          inViewCount={data.inView?.length ?? null}
          hasFilters={view.brand !== null || view.state !== null || view.search !== ""}
        />
      </Card>
    </div>
  );
}

/** The mode switch, and "cheapest near here" or the Route mode. */
export function SidePanel({
  view,
  setView,
  shown,
  data,
  product,
  routeMode,
  selectedId,
  onSelect,
  now,
}: {
  view: View;
  setView: SetView;
  shown: readonly Station[];
  data: ReturnType<typeof useStationsData>;
  product: ReturnType<typeof useProductMode>;
  routeMode: RouteModeState;
  selectedId: string | null;
  onSelect: (id: string) => void;
  now: number;
}) {
  const isRoute = view.mode === "route";
  return (
    <div className="min-w-0 space-y-4 lg:col-span-2" data-testid="panel-column">
      <RouteModeSwitch
        mode={view.mode}
        onChange={(mode) => {
          setView({ mode });
        }}
      />
      {isRoute ? (
        <Card title="Cheapest along a route">
          <RoutePanel state={routeMode} stations={shown} productMode={product.productMode} />
        </Card>
      ) : (
        <Card title="Cheapest near here">
          <NearbyPanel
            view={view}
            stations={shown}
            ranking={data.ranking}
            selectedId={selectedId}
            onSelect={onSelect}
            onChange={setView}
            now={now}
            productMode={product.productMode}
          />
        </Card>
      )}
    </div>
  );
}
