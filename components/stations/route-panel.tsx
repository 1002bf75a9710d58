"use client";

import { Button } from "@/components/ui/button";
import type { Station } from "@/lib/model";
import type { StationProduct } from "@/lib/model/products";

import { ProductModeNotice } from "./nearby-results";
import { productInText, productName } from "./product-ranking";
import { ProductSummary } from "./product-summary";
import { routeMoney, routeTenths } from "./route-format";
import { describeRoutePoints, type RouteModeState } from "./route-mode";
import { RoutePointsForm } from "./route-points-form";
import { RoutePlanTable, RouteRankedTable } from "./route-tables";
import { RouteCorridorFields, RouteTruckForm } from "./route-truck-form";
import type { ProductMode } from "./use-product-mode";
import { DEFAULT_PRODUCT } from "./view-state";

export interface RoutePanelProps {
  state: RouteModeState;
  stations: readonly Station[];
  product: StationProduct;
  /** Null when diesel (the catalog's price) ranks; otherwise whether the product's prices can be checked. */
  productMode: ProductMode | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/**
 * The Route mode: from, via and to; the corridor; the truck; then the corridor's stations ranked by effective price
 * with a "worth it?" verdict, and the fill plan. The results print as a summary (the forms and the rest of the page do
 * not), like the jurisdiction report's sheet.
 */
export function RoutePanel({ state, stations, product, productMode, selectedId, onSelect }: RoutePanelProps) {
  const { route, result } = state;
  // Diesel ranks while another product cannot (the notice says why).
  const ranked = productMode === null || productMode.status === "ready" ? product : DEFAULT_PRODUCT;
  return (
    <div className="space-y-5" data-print-report>
      <div className="space-y-5 print:hidden">
        <RoutePointsForm
          route={route}
          stations={stations}
          onRouteChange={state.onRouteChange}
          picking={state.picking}
          onPick={state.onPick}
        />
        <RouteCorridorFields route={route} onRouteChange={state.onRouteChange} />
        <RouteTruckForm
          truck={state.truck}
          inLink={route.truck !== null}
          onTruckChange={state.onTruckChange}
          onInLinkChange={state.onInLinkChange}
        />
      </div>
      {productMode === null || productMode.status === "ready" ? null : <ProductModeNotice mode={productMode} />}
      {result === null ? (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="route-summary">
          Choose where the truck starts and where it goes (a place, coordinates or a click on the map).
        </p>
      ) : (
        <div className="space-y-5">
          <RouteSummary state={state} productLabel={productInText(ranked)} />
          {state.productChecks === null ? null : (
            <ProductSummary
              ranking={state.productChecks.ranking}
              prices={state.productChecks.prices}
              radiusMiles={route.corridor}
              place="the route"
              onCheckMore={state.productChecks.onCheckMore}
              onClearPoint={null}
            />
          )}
          <RouteRankedTable
            ranked={result.ranked}
            productLabel={productName(ranked)}
            selectedId={selectedId}
            onSelect={onSelect}
          />
          <RoutePlanTable plan={result.plan} onSelect={onSelect} />
          <Button
            variant="secondary"
            className="print:hidden"
            onClick={() => {
              window.print();
            }}
          >
            Print summary
          </Button>
        </div>
      )}
    </div>
  );
}

function RouteSummary({ state, productLabel }: { state: RouteModeState; productLabel: string }) {
  const { route, truck, result } = state;
  if (result === null) return null;
  const count = result.candidates.length;
  return (
    <div
      className="space-y-1 text-sm text-slate-700 dark:text-slate-300"
      aria-live="polite"
      data-testid="route-summary"
    >
      <p>
        <span className="font-medium text-slate-900 dark:text-slate-100">{describeRoutePoints(route)}</span>:{" "}
        <span data-testid="route-miles">{routeTenths(result.route.totalMiles)}</span> mi.{" "}
        {count === 0
          ? `No station with a ${productLabel} price within ${String(route.corridor)} mi of the path.`
          : `${String(count)} ${count === 1 ? "station" : "stations"} with a ${productLabel} price within ${String(route.corridor)} mi of the path.`}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="route-approximation">
        The route is a straight line (great-circle) between the points, not the roads: distances and detours are
        approximations. A detour is twice a station&apos;s distance from the path × {route.circuity} (circuity).
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="route-truck-summary">
        Truck: {truck.tankGallons} gal tank, {truck.fuelNowGallons} gal now, {truck.mpg} mpg, {truck.reserveGallons} gal
        reserve, driver time {routeMoney(truck.hourlyValue)}/h.
      </p>
    </div>
  );
}
