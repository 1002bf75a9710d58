/**
 * The route planner (issue 18): a great-circle route, the stations in a corridor around it with their detours, a
 * ranking by effective price with a "worth it?" verdict, and the cheapest fill plan. Pure TypeScript, for the browser
 * and Node alike.
 */
export { type Candidate, corridorCandidates, isUsablePrice, type PricedStation } from "./corridor";
export { distanceMiles, type LatLng } from "./geo";
export {
  checkOptions,
  checkTruck,
  DEFAULT_ROUTE_OPTIONS,
  DEFAULT_TRUCK,
  type RouteOptions,
  type TruckProfile,
} from "./options";
export { type PathPosition, positionOnRoute, type Route, type RouteLeg, routePolyline, routeThrough } from "./path";
export { type FillPlan, type FillStop, planFills } from "./plan";
export { shownPlan, type ShownStop } from "./plan-figures";
export { ON_ROUTE_MILES, rankCandidates, type RankedCandidate } from "./rank";
export { type PlanFixes, suggestPlanFixes, type ViaSuggestion } from "./suggest";
