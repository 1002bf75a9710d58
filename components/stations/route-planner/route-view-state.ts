import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "@/lib/route";

import { formatLatLng as formatPoint, type LatLng, parseLatLng as parsePoint, pointLabel } from "../shared/lat-lng";
import { readTruckDraft } from "./route-truck";

/**
 * The Route mode's part of the stations page's URL (view-state.ts holds the rest): the points (from, via…, to) with
 * their labels, the corridor and circuity, and the truck only when the person chose "include truck in link" (it
 * otherwise stays in this browser, route-truck.ts). Pure functions, unit-tested without a browser.
 */

export interface RoutePoint {
  point: LatLng;
  /** How the point reads ("Amarillo, TX", "35.2220, -101.8313"); the coordinates decide. */
  label: string;
}

export interface RouteView {
  from: RoutePoint | null;
  to: RoutePoint | null;
  via: RoutePoint[];
  /** Half-width of the corridor around the path, miles. */
  corridor: number;
  /** Road miles per straight-line mile of a detour. */
  circuity: number;
  /** The truck, in the link only when the person asked for it; null: this browser's own truck. */
  truck: TruckProfile | null;
  /**
   * What the link carried that could not be used, as sentences for the page ("The link's corridor (500 mi) is out
   * of range 1–50; using 10."). Only parseRouteView fills it; the link never carries it (serializeRouteView).
   */
  linkProblems: readonly string[];
}

/** Via points a link may carry: a dispatcher's route has a few stops, and the URL stays readable. */
export const MAX_VIA_POINTS = 5;
export const CORRIDOR_RANGE = { min: 1, max: 50 } as const;
export const CIRCUITY_RANGE = { min: 1, max: 3 } as const;
const MAX_LABEL_LENGTH = 80;
/** Between via points in `via` and `viaPlace`; never part of a label (it is dropped from them). */
const LIST_SEPARATOR = "|";

export const DEFAULT_ROUTE_VIEW: RouteView = {
  from: null,
  to: null,
  via: [],
  corridor: DEFAULT_ROUTE_OPTIONS.corridorMiles,
  circuity: DEFAULT_ROUTE_OPTIONS.circuity,
  truck: null,
  linkProblems: [],
};

/** The truck's fields in the link, by their short parameter names. */
const TRUCK_PARAMS = {
  tankGallons: "tank",
  fuelNowGallons: "fuel",
  mpg: "mpg",
  reserveGallons: "reserve",
  hourlyValue: "hour",
} as const satisfies Record<keyof TruckProfile, string>;

/** A label as the link may carry it: trimmed, short, without the list separator. */
export function cleanLabel(label: string): string {
  return label.replaceAll(LIST_SEPARATOR, " ").trim().slice(0, MAX_LABEL_LENGTH);
}

function routePoint(point: LatLng | null, label: string | null): RoutePoint | null {
  if (point === null) return null;
  const clean = cleanLabel(label ?? "");
  return { point, label: clean === "" ? pointLabel(point) : clean };
}

/** A link's value as a problem sentence quotes it: short (the page shows it as text, never as markup). */
function quoted(value: string): string {
  const trimmed = value.trim();
  return trimmed.length > 24 ? `${trimmed.slice(0, 24)}…` : trimmed;
}

/** A number in [min, max], or the fallback (with a problem) when the parameter is out of range or not a number. */
function numberIn(
  value: string | null,
  what: { name: string; unit: string },
  range: { min: number; max: number },
  fallback: number,
  problems: string[],
): number {
  if (value === null || value.trim() === "") return fallback;
  const n = Number(value);
  if (Number.isFinite(n) && n >= range.min && n <= range.max) return n;
  const using = `using ${String(fallback)}.`;
  problems.push(
    Number.isFinite(n)
      ? `The link's ${what.name} (${quoted(value)}${what.unit}) is out of range ${String(range.min)}–${String(range.max)}; ${using}`
      : `The link's ${what.name} ("${quoted(value)}") is not a number; ${using}`,
  );
  return fallback;
}

function parseTruck(params: Pick<URLSearchParams, "get">, problems: string[]): TruckProfile | null {
  const draft = Object.fromEntries(
    Object.entries(TRUCK_PARAMS).map(([field, name]) => [field, params.get(name) ?? ""]),
  ) as Record<keyof TruckProfile, string>;
  if (Object.values(draft).every((v) => v === "")) return null;
  const { truck, errors } = readTruckDraft(draft);
  if (truck === null) problems.push(`The link's truck was ignored: ${Object.values(errors).join(" ")}`);
  return truck;
}

/** A point of the link, or null with a problem when the parameter is there but is not coordinates. */
function linkPoint(value: string | null, label: string | null, name: string, problems: string[]): RoutePoint | null {
  if (value === null || value.trim() === "") return null;
  const point = routePoint(parsePoint(value), label);
  if (point === null)
    problems.push(`The link's ${name} ("${quoted(value)}") is not a latitude,longitude pair; it was left out.`);
  return point;
}

/** The route of a link, with what could not be used of it in `linkProblems` (the page shows them). */
export function parseRouteView(params: Pick<URLSearchParams, "get">): RouteView {
  const problems: string[] = [];
  const from = linkPoint(params.get("from"), params.get("fromPlace"), "start (from)", problems);
  const to = linkPoint(params.get("to"), params.get("toPlace"), "end (to)", problems);
  const viaLabels = (params.get("viaPlace") ?? "").split(LIST_SEPARATOR);
  // Each via point keeps its own position's label: an empty entry ("a||b") is skipped without shifting the others.
  const viaEntries = (params.get("via") ?? "")
    .split(LIST_SEPARATOR)
    .map((value, i) => ({ value, label: viaLabels[i] ?? "" }))
    .filter((entry) => entry.value.trim() !== "");
  if (viaEntries.length > MAX_VIA_POINTS)
    problems.push(
      `The link has ${String(viaEntries.length)} via points; the first ${String(MAX_VIA_POINTS)} are used.`,
    );
  const via = viaEntries
    .slice(0, MAX_VIA_POINTS)
    .map((entry) => linkPoint(entry.value, entry.label, "via point", problems))
    .filter((p): p is RoutePoint => p !== null);
  return {
    from,
    to,
    via,
    corridor: numberIn(
      params.get("corridor"),
      { name: "corridor", unit: " mi" },
      CORRIDOR_RANGE,
      DEFAULT_ROUTE_VIEW.corridor,
      problems,
    ),
    circuity: numberIn(
      params.get("circuity"),
      { name: "circuity", unit: "" },
      CIRCUITY_RANGE,
      DEFAULT_ROUTE_VIEW.circuity,
      problems,
    ),
    truck: parseTruck(params, problems),
    linkProblems: problems,
  };
}

/** Adds the route's parameters to `params`; defaults are left out. */
export function serializeRouteView(route: RouteView, params: URLSearchParams): void {
  if (route.from !== null) {
    params.set("from", formatPoint(route.from.point));
    params.set("fromPlace", cleanLabel(route.from.label));
  }
  if (route.to !== null) {
    params.set("to", formatPoint(route.to.point));
    params.set("toPlace", cleanLabel(route.to.label));
  }
  if (route.via.length > 0) {
    const via = route.via.slice(0, MAX_VIA_POINTS);
    params.set("via", via.map((p) => formatPoint(p.point)).join(LIST_SEPARATOR));
    params.set("viaPlace", via.map((p) => cleanLabel(p.label)).join(LIST_SEPARATOR));
  }
  if (route.corridor !== DEFAULT_ROUTE_VIEW.corridor) params.set("corridor", String(route.corridor));
  if (route.circuity !== DEFAULT_ROUTE_VIEW.circuity) params.set("circuity", String(route.circuity));
  if (route.truck !== null)
    for (const [field, name] of Object.entries(TRUCK_PARAMS))
      params.set(name, String(route.truck[field as keyof TruckProfile]));
}

/** The route's points in order (from, via…, to), or null while from or to is missing. */
export function routePoints(route: RouteView): LatLng[] | null {
  if (route.from === null || route.to === null) return null;
  return [route.from.point, ...route.via.map((v) => v.point), route.to.point];
}

/**
 * The route with a via point inserted at `index` among its via points (0: right after the start), its label cleaned
 * as a link's would be: how the plan's suggested via point (lib/route's suggestPlanFixes) is applied.
 */
export function withViaAt(route: RouteView, via: { point: LatLng; label: string; index: number }): RouteView {
  const point = { point: via.point, label: cleanLabel(via.label) };
  return { ...route, via: [...route.via.slice(0, via.index), point, ...route.via.slice(via.index)] };
}
