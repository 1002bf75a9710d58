import { corridorCandidates, isUsablePrice, type PricedStation } from "./corridor";
import type { LatLng } from "./geo";
import type { RouteOptions, TruckProfile } from "./options";
import { positionOnRoute, type Route, routeThrough } from "./path";
import { planFills } from "./plan";

/**
 * What to change when no fill plan is possible (issue 25, item 5): a wider corridor, or a via point through a station
 * in the gap. Each suggestion is checked: the plan over it exists. Pure; the page offers each as a button.
 */
export interface ViaSuggestion {
  point: LatLng;
  /** "Love's Travel Stop #123, Casper, WY": the station the via point is at. */
  label: string;
  /** Where it goes among the route's via points (0: right after the start). */
  index: number;
  /** Miles the station lies off the current path. */
  offMiles: number;
}

export interface PlanFixes {
  /** The narrowest corridor (of CORRIDOR_STEPS, up to the page's maximum) with a plan; null when none has. */
  corridorMiles: number | null;
  /** A station in the gap, nearest the path first, whose via point gives a plan at the same corridor; null if none. */
  via: ViaSuggestion | null;
}

/** The corridors tried, narrowest first: round figures a dispatcher would type. */
const CORRIDOR_STEPS: readonly number[] = [15, 20, 25, 30, 40, 50];
/** Via stations tried, nearest the path first: each try plans the whole route again. */
const VIA_TRIES = 12;

function feasible(
  route: Route,
  stations: readonly PricedStation[],
  truck: TruckProfile,
  options: RouteOptions,
): boolean {
  return planFills(route, corridorCandidates(route, stations, options), truck, options).feasible;
}

/** The leg a mile along the route falls on: a via point there is inserted after that leg's start. */
function legIndexAt(route: Route, alongMiles: number): number {
  const index = route.legs.findIndex((leg) => alongMiles < leg.startMiles + leg.miles);
  return index < 0 ? route.legs.length - 1 : index;
}

function viaThroughGap(
  points: readonly LatLng[],
  route: Route,
  stations: readonly PricedStation[],
  truck: TruckProfile,
  options: RouteOptions,
  gap: { from: number; to: number },
): ViaSuggestion | null {
  const inGap = stations
    .filter((s) => Number.isFinite(s.station.lat) && Number.isFinite(s.station.lng) && isUsablePrice(s.price))
    .map((s) => ({ s, at: positionOnRoute(route, s.station) }))
    .filter(({ at }) => at.alongMiles > gap.from && at.alongMiles < gap.to && at.offMiles > options.corridorMiles)
    .sort((a, b) => a.at.offMiles - b.at.offMiles || a.s.station.locNum.localeCompare(b.s.station.locNum));
  for (const { s, at } of inGap.slice(0, VIA_TRIES)) {
    const leg = legIndexAt(route, at.alongMiles);
    const point = { lat: s.station.lat, lng: s.station.lng };
    const withVia = [...points.slice(0, leg + 1), point, ...points.slice(leg + 1)];
    if (feasible(routeThrough(withVia), stations, truck, options))
      return {
        point,
        label: `${s.station.name}, ${s.station.city}, ${s.station.state}`,
        index: leg,
        offMiles: at.offMiles,
      };
  }
  return null;
}

/**
 * Ways to make a plan possible on the route through `points` over `stations` (every station priced, not only the
 * corridor's): null when a plan exists already or nothing in the route can help (the truck starts under its reserve).
 * `maxCorridorMiles`: the widest corridor the page accepts; `canAddVia`: false when the route has its maximum of via
 * points.
 */
export function suggestPlanFixes(
  points: readonly LatLng[],
  stations: readonly PricedStation[],
  truck: TruckProfile,
  options: RouteOptions,
  limits: { maxCorridorMiles: number; canAddVia: boolean },
): PlanFixes | null {
  const route = routeThrough(points);
  const plan = planFills(route, corridorCandidates(route, stations, options), truck, options);
  if (plan.feasible || plan.gap === null) return null;
  const corridorMiles =
    CORRIDOR_STEPS.filter((w) => w > options.corridorMiles && w <= limits.maxCorridorMiles).find((w) =>
      feasible(route, stations, truck, { ...options, corridorMiles: w }),
    ) ?? null;
  const gap = { from: plan.gap.fromMile ?? 0, to: plan.gap.toMile ?? route.totalMiles };
  const via = limits.canAddVia ? viaThroughGap(points, route, stations, truck, options, gap) : null;
  return { corridorMiles, via };
}
