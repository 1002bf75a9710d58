"use client";

import { useEffect, useMemo } from "react";

import type { Station } from "@/lib/model";
import type { StationProduct } from "@/lib/model/products";
import type { StationPricesState } from "@/lib/queries/locations";
import {
  type Candidate,
  corridorCandidates,
  DEFAULT_ROUTE_OPTIONS,
  type FillPlan,
  isUsablePrice,
  planFills,
  type PlanFixes,
  type PricedStation,
  rankCandidates,
  type RankedCandidate,
  type Route,
  type RouteOptions,
  routePolyline,
  routeThrough,
  suggestPlanFixes,
  type TruckProfile,
} from "@/lib/route";

import type { LatLng } from "../shared/lat-lng";
import { DEFAULT_PRODUCT, type PriceLookup, type ProductRanking, rankByProduct } from "../shared/product-ranking";
import type { StationWithin } from "../shared/ranking";
import { usePriceChecks } from "../shared/use-product-mode";
import { CORRIDOR_RANGE, MAX_VIA_POINTS, routePoints, type RouteView } from "./route-view-state";

/**
 * What the Route mode derives from the catalog, the route in the URL and the truck: the great-circle route, its
 * corridor's stations priced (the catalog's diesel, or another product checked station by station), their ranking by
 * effective price and the fill plan (lib/route does the arithmetic).
 */

export interface RouteResult {
  route: Route;
  polyline: LatLng[];
  /** Every corridor station with a price for the product, in route order. */
  candidates: Candidate[];
  ranked: RankedCandidate[];
  /** Null for DEF: the plan is for the truck's fuel, which DEF is not. */
  plan: FillPlan | null;
  /** Another product than diesel: how many corridor stations were checked of how many (the plan covers those). */
  coverage: { checked: number; total: number } | null;
  /** No plan is possible over the catalog's diesel: a wider corridor or a via point that gives one (checked). */
  fixes: PlanFixes | null;
}

/** The checks of another product than diesel: what was checked, and the state of the requests. */
export interface RouteProductChecks {
  product: StationProduct;
  ranking: ProductRanking;
  prices: StationPricesState;
  onCheckMore: () => void;
}

const NO_WITHIN: readonly StationWithin[] = [];

export function routeOptionsOf(route: RouteView): RouteOptions {
  return { ...DEFAULT_ROUTE_OPTIONS, corridorMiles: route.corridor, circuity: route.circuity };
}

/** The catalog's (diesel) prices of the stations: those without one cannot be ranked. */
export function catalogPriced(stations: readonly Station[]): PricedStation[] {
  const priced: PricedStation[] = [];
  for (const station of stations)
    if (station.price !== null) priced.push({ station, price: Number(station.price), priceText: station.price });
  return priced;
}

/**
 * The price of the truck's fuel for a DEF detour: the mean catalog (diesel) price of the corridor's stations that
 * have one; null when none has (the detour's fuel is then left out: its time alone is counted).
 */
export function corridorDieselPrice(corridor: readonly Candidate[]): number | null {
  const prices = catalogPriced(corridor.map((c) => c.station))
    .map((p) => p.price)
    .filter(isUsablePrice);
  return prices.length === 0 ? null : prices.reduce((sum, p) => sum + p, 0) / prices.length;
}

/**
 * Ranking and plan over corridor candidates already priced: the plan first, so each verdict is about the gallons the
 * plan buys at its stops. DEF is ranked only (its detour's fuel at `truckFuelPrice`, the truck's fuel, or left out
 * when null); no fill plan, which is about the fuel the truck burns.
 */
export function rankAndPlan(
  route: Route,
  candidates: Candidate[],
  truck: TruckProfile,
  options: RouteOptions,
  product: StationProduct = DEFAULT_PRODUCT,
  truckFuelPrice: number | null = null,
): Omit<RouteResult, "polyline" | "coverage" | "fixes"> {
  const def = product === "def";
  const plan = def ? null : planFills(route, candidates, truck, options);
  return {
    route,
    candidates,
    ranked: rankCandidates(candidates, truck, options, def ? (truckFuelPrice ?? 0) : null, plan),
    plan,
  };
}

/**
 * The corridor's stations in the order their product prices are checked: nearest the path first (so the first checks
 * cover the whole route, not its first miles), then along the route, then loc number. `distanceMiles` is the distance
 * from the path, which the product summary reports as "nearest".
 */
export function checkOrder(candidates: readonly Candidate[]): StationWithin[] {
  return [...candidates]
    .sort(
      (a, b) =>
        a.offMiles - b.offMiles || a.alongMiles - b.alongMiles || a.station.locNum.localeCompare(b.station.locNum),
    )
    .map((c) => ({ station: c.station, distanceMiles: c.offMiles }));
}

/** The corridor candidates with the checked product price of each station that has one. */
export function withCheckedPrices(
  candidates: readonly Candidate[],
  lookups: ReadonlyMap<string, PriceLookup>,
  product: StationProduct,
): Candidate[] {
  const priced: Candidate[] = [];
  for (const candidate of candidates) {
    const lookup = lookups.get(candidate.station.id);
    const price = lookup?.kind === "found" ? (lookup.prices[product] ?? null) : null;
    // lib/route's rule: a checked "$0" or a price that is not a number must not rank or plan.
    if (price !== null && isUsablePrice(Number(price)))
      priced.push({ ...candidate, price: Number(price), priceText: price });
  }
  return priced;
}

/**
 * The Route mode's results. `productReady`: the product of the view is another than diesel and the upstream's details
 * price it (see useProductMode); its prices are then checked a step at a time, within the budget (usePriceChecks).
 */
export function useRouteData(
  routeView: RouteView,
  product: StationProduct,
  productReady: boolean,
  shown: readonly Station[],
  truck: TruckProfile,
  /** False in "cheapest near here": nothing is computed, no price checked, even with a route in the URL. */
  active: boolean,
) {
  const points = active ? routePoints(routeView) : null;
  const pointsKey = points === null ? "" : JSON.stringify(points);
  const options = useMemo(() => routeOptionsOf(routeView), [routeView]);
  const route = useMemo(() => (pointsKey === "" ? null : routeThrough(JSON.parse(pointsKey) as LatLng[])), [pointsKey]);
  const polyline = useMemo(() => (route === null ? null : routePolyline(route)), [route]);
  const byProduct = productReady && product !== DEFAULT_PRODUCT;
  // Every corridor station by geometry alone (the product's prices are not known yet): the ones to check.
  const corridor = useMemo(
    () =>
      route === null || !byProduct
        ? null
        : corridorCandidates(
            route,
            // Only the geometry is read here; the price must be positive (lib/route leaves out $0 or less).
            shown.map((station) => ({ station, price: 1, priceText: "" })),
            options,
          ),
    [route, byProduct, shown, options],
  );
  const toCheck = useMemo(() => (corridor === null ? NO_WITHIN : checkOrder(corridor)), [corridor]);
  const checks = useProductChecks(toCheck, product, `${pointsKey}|${String(options.corridorMiles)}|${product}`);
  const dieselTimed = useMemo(() => {
    if (route === null || byProduct) return null;
    return timedRun(() => corridorCandidates(route, catalogPriced(shown), options));
  }, [route, byProduct, shown, options]);
  const diesel = dieselTimed?.value ?? null;
  const productCandidates = useMemo(
    () => (corridor === null ? null : withCheckedPrices(corridor, checks.lookups, product)),
    [corridor, checks.lookups, product],
  );
  const candidates = byProduct ? productCandidates : diesel;
  const rankedProduct = byProduct ? product : DEFAULT_PRODUCT;
  const truckFuelPrice = useMemo(() => (corridor === null ? null : corridorDieselPrice(corridor)), [corridor]);
  const checked = checks.ranking.checked;
  const timed = useMemo(() => {
    if (route === null || polyline === null || candidates === null) return null;
    const coverage = byProduct ? { checked, total: toCheck.length } : null;
    return timedRun(() => ({
      ...rankAndPlan(route, candidates, truck, options, rankedProduct, truckFuelPrice),
      polyline,
      coverage,
    }));
  }, [route, polyline, candidates, truck, options, rankedProduct, truckFuelPrice, byProduct, checked, toCheck.length]);
  // Only when the diesel plan fails: the catalog prices every station, so a wider corridor or a via point is checked.
  const infeasible = timed !== null && timed.value.plan?.feasible === false && !byProduct;
  const fixes = useMemo(
    () =>
      infeasible && pointsKey !== ""
        ? planFixesOf(JSON.parse(pointsKey) as LatLng[], shown, truck, options, routeView.via.length)
        : null,
    [infeasible, pointsKey, shown, truck, options, routeView.via.length],
  );
  const result: RouteResult | null = timed === null ? null : { ...timed.value, fixes };
  // The page's own figure of issue 18 (bench part map reads it): corridor + ranking + plan over the catalog, on the
  // main thread, as `performance.measure("ffd:route-plan")` — diesel only (another product waits on price checks).
  useEffect(() => {
    if (timed === null || dieselTimed === null || byProduct) return;
    performance.measure("ffd:route-plan", {
      start: timed.start,
      duration: dieselTimed.ms + timed.ms,
      detail: { stations: shown.length, candidates: timed.value.candidates.length },
    });
  }, [timed, dieselTimed, byProduct, shown.length]);
  const productChecks: RouteProductChecks | null = byProduct
    ? { product, ranking: checks.ranking, prices: checks.prices, onCheckMore: checks.onCheckMore }
    : null;
  return { result, productChecks, corridorCount: byProduct ? toCheck.length : (diesel?.length ?? 0) };
}

/** A wider corridor or a via point that gives a plan (see suggestPlanFixes), within what the page accepts. */
export function planFixesOf(
  points: readonly LatLng[],
  shown: readonly Station[],
  truck: TruckProfile,
  options: RouteOptions,
  viaCount: number,
): PlanFixes | null {
  return suggestPlanFixes(points, catalogPriced(shown), truck, options, {
    maxCorridorMiles: CORRIDOR_RANGE.max,
    canAddVia: viaCount < MAX_VIA_POINTS,
  });
}

/**
 * `run()` with how long it took on the main thread. The times feed only the `ffd:route-plan` measure, never what is
 * rendered, so reading the clock here keeps the render pure in effect.
 */
function timedRun<T>(run: () => T): { value: T; start: number; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, start, ms: performance.now() - start };
}

/** The corridor's stations checked nearest the path first (usePriceChecks), ranked by what they gave. */
function useProductChecks(toCheck: readonly StationWithin[], product: StationProduct, scope: string) {
  const { checkLimit, prices, lookups, onCheckMore } = usePriceChecks(toCheck, scope);
  const ranking = useMemo(
    () => rankByProduct(toCheck, lookups, product, checkLimit, toCheck.length),
    [toCheck, lookups, product, checkLimit],
  );
  return { prices, lookups, ranking, onCheckMore };
}
