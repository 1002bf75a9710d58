"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { LinkProblems } from "@/components/ui/link-problems";
import type { Station } from "@/lib/model";

import { ProductModeNotice } from "../shared/product-mode-notice";
import { DEFAULT_PRODUCT, productInText, productName } from "../shared/product-ranking";
import { ProductSummary } from "../shared/product-summary";
import type { ProductMode } from "../shared/use-product-mode";
import { routeMoney, routeTenths } from "./route-format";
import { describeRoutePoints, type RouteModeState } from "./route-mode";
import { type PlanFixActions, RoutePlanTable } from "./route-plan-table";
import { RoutePointsForm } from "./route-points-form";
import { RouteRankedTable } from "./route-tables";
import { RouteCorridorFields, RouteTruckForm } from "./route-truck-form";
import { withViaAt } from "./route-view-state";

export interface RoutePanelProps {
  state: RouteModeState;
  stations: readonly Station[];
  /** Null when diesel (the catalog's price) ranks; otherwise whether the product's prices can be checked. */
  productMode: ProductMode | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** The Route mode's questions: from, via and to; the corridor; the truck. The answers are in RouteResults. */
export function RoutePanel({
  state,
  stations,
  productMode,
}: Pick<RoutePanelProps, "state" | "stations" | "productMode">) {
  const { route } = state;
  return (
    <div className="space-y-5">
      {/* Above the form: what of the shared link was not used, and what is used instead (never dropped silently). */}
      <LinkProblems problems={route.linkProblems} testId="route-link-problems" />
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
      {productMode === null || productMode.status === "ready" ? null : <ProductModeNotice mode={productMode} />}
      {state.result === null ? (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="route-summary">
          Choose where the truck starts and where it goes (a place, coordinates or a click on the map).
        </p>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          The ranking and the fill plan are under the map.{" "}
          <a
            href="#route-results"
            className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
          >
            Go to them
          </a>
        </p>
      )}
    </div>
  );
}

/**
 * The Route mode's answers, across the page under the map: the corridor's stations ranked by effective price with a
 * "worth it?" verdict, and the fill plan. They print as a summary (the rest of the page does not), like the
 * jurisdiction report's sheet.
 */
export function RouteResults({ state, productMode, selectedId, onSelect }: Omit<RoutePanelProps, "stations">) {
  const { route, result } = state;
  if (result === null) return null;
  // Diesel ranks unless another product's prices can be checked (else the form's notice says why).
  const ranked = productMode?.status === "ready" ? productMode.product : DEFAULT_PRODUCT;
  return (
    <Card title="Along the route: ranking and fill plan">
      <div className="space-y-5" data-print-report id="route-results">
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
        {/* The plan first: it is the answer to "where should the truck fill"; the ranking shows the choices. */}
        <RoutePlanTable
          plan={result.plan}
          coverage={result.coverage}
          onSelect={onSelect}
          fixes={result.fixes}
          actions={fixActions(state)}
        />
        <RouteRankedTable
          ranked={result.ranked}
          productLabel={productName(ranked)}
          selectedId={selectedId}
          onSelect={onSelect}
        />
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
    </Card>
  );
}

/** The plan's suggestions applied to the route in the URL (a step Back undoes them). */
function fixActions(state: RouteModeState): PlanFixActions {
  const { route } = state;
  return {
    onWiden: (corridor) => {
      state.onRouteChange({ ...route, corridor });
    },
    onAddVia: (via) => {
      state.onRouteChange(withViaAt(route, via));
    },
  };
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
