import { quoted } from "@/lib/format/quoted";
import type { Station } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";
import { STATION_PRODUCTS, type StationProduct } from "@/lib/model/products";
import { filterStations as filterByStation } from "@/lib/model/station-filter";
import { US_STATE_CODES } from "@/lib/model/us-states";

import type { ViewBounds } from "./map/map-props";
import {
  DEFAULT_ROUTE_VIEW,
  parseRouteView,
  type RouteView,
  serializeRouteView,
} from "./route-planner/route-view-state";
import { formatLatLng, type LatLng, parseLatLng } from "./shared/lat-lng";
import { DEFAULT_PRODUCT } from "./shared/product-ranking";

/**
 * The stations page's view as it lives in the URL, so a view can be shared: the filters (brand, state, search, product),
 * the "cheapest near here" question (a point, a radius, how many) and the selected station. Pure functions, unit-tested
 * without a browser.
 */

export const RADIUS_OPTIONS_MILES = [10, 25, 50, 100, 250] as const;
export type RadiusMiles = (typeof RADIUS_OPTIONS_MILES)[number];
const DEFAULT_RADIUS_MILES: RadiusMiles = 50;
export const RESULT_COUNT_OPTIONS = [5, 10, 20, 50] as const;
export type ResultCount = (typeof RESULT_COUNT_OPTIONS)[number];
const DEFAULT_RESULT_COUNT: ResultCount = 10;

/**
 * What the map's colours compare a station with: `all`, every station the filters show (the whole country when no
 * state is chosen); `view`, only the stations in the map's current view, so the cheaper ones near a point stand out
 * even where the whole region is cheap nationally.
 */
const COLOUR_SCALES = ["all", "view"] as const;
export type ColourScale = (typeof COLOUR_SCALES)[number];
const DEFAULT_COLOUR_SCALE: ColourScale = "all";

/** What the side panel asks: "cheapest near here" (a point) or the cheapest along a route (route-view-state.ts). */
const MODES = ["near", "route"] as const;
export type StationsMode = (typeof MODES)[number];

export interface StationsView {
  brand: string | null;
  state: string | null;
  search: string;
  near: LatLng | null;
  /** A label for `near` ("Amarillo, TX", "your location"); the coordinates decide. */
  nearLabel: string;
  radius: RadiusMiles;
  count: ResultCount;
  /** Which product's price ranks "cheapest near here". Only offered when the upstream's detail prices several. */
  product: StationProduct;
  /** The station selected on the map or in the ranked list (its popup open), by id: a shared link opens on it. */
  selected: string | null;
  /** Which stations the map's price classes are computed from. */
  scale: ColourScale;
  mode: StationsMode;
  route: RouteView;
}

export const DEFAULT_VIEW: StationsView = {
  brand: null,
  state: null,
  search: "",
  near: null,
  nearLabel: "",
  radius: DEFAULT_RADIUS_MILES,
  count: DEFAULT_RESULT_COUNT,
  product: DEFAULT_PRODUCT,
  selected: null,
  scale: DEFAULT_COLOUR_SCALE,
  mode: "near",
  route: DEFAULT_ROUTE_VIEW,
};

const BRAND = /^[a-z0-9_-]{1,40}$/;
/** Station ids are UUIDs upstream; anything of another shape cannot name a station and is ignored. */
const STATION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LABEL_LENGTH = 80;

function includes<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** Reads the view from the URL; anything unreadable falls back to its default instead of failing the page. */
export function parseView(params: Pick<URLSearchParams, "get">): StationsView {
  const brand = (params.get("brand") ?? "").toLowerCase();
  const state = (params.get("state") ?? "").toUpperCase();
  const radius = Number(params.get("radius"));
  const count = Number(params.get("n"));
  const near = parseLatLng(params.get("near"));
  const product = (params.get("product") ?? "").toLowerCase();
  const selected = params.get("station") ?? "";
  const scale = (params.get("scale") ?? "").toLowerCase();
  const mode = (params.get("mode") ?? "").toLowerCase();
  return {
    brand: BRAND.test(brand) ? brand : null,
    state: includes(US_STATE_CODES, state) ? state : null,
    search: (params.get("search") ?? "").trim().slice(0, MAX_SEARCH_LENGTH),
    near,
    nearLabel: near === null ? "" : (params.get("place") ?? "").trim().slice(0, MAX_LABEL_LENGTH),
    radius: includes(RADIUS_OPTIONS_MILES, radius) ? radius : DEFAULT_RADIUS_MILES,
    count: includes(RESULT_COUNT_OPTIONS, count) ? count : DEFAULT_RESULT_COUNT,
    product: includes(STATION_PRODUCTS, product) ? product : DEFAULT_PRODUCT,
    selected: STATION_ID.test(selected) ? selected : null,
    scale: includes(COLOUR_SCALES, scale) ? scale : DEFAULT_COLOUR_SCALE,
    mode: includes(MODES, mode) ? mode : "near",
    route: parseRouteView(params),
  };
}

/**
 * What of a link's stations view parseView set aside, in sentences (issue 26: never silently); the route's own
 * parameters are said by the route panel (RouteView.linkProblems). Only the link's values: the page writes valid ones.
 */
export function stationsViewProblems(params: Pick<URLSearchParams, "get">): string[] {
  const view = parseView(params);
  const problems: string[] = [];
  const said = (name: string, ok: boolean, sentence: (raw: string) => string) => {
    const raw = params.get(name);
    if (raw !== null && raw !== "" && !ok) problems.push(sentence(raw));
  };
  said(
    "near",
    view.near !== null,
    (raw) => `${quoted(raw)} is not a place on the map (latitude,longitude such as 35.22,-101.83); no place is chosen.`,
  );
  said(
    "radius",
    String(view.radius) === params.get("radius"),
    (raw) =>
      `${quoted(raw)} is not a radius offered (${RADIUS_OPTIONS_MILES.join(", ")} mi); using ${String(view.radius)} mi.`,
  );
  said(
    "n",
    String(view.count) === params.get("n"),
    (raw) =>
      `${quoted(raw)} is not a number of results offered (${RESULT_COUNT_OPTIONS.join(", ")}); showing ${String(view.count)}.`,
  );
  said("brand", view.brand !== null, (raw) => `${quoted(raw)} is not a brand; every brand is shown.`);
  said("state", view.state !== null, (raw) => `${quoted(raw)} is not a US state code; every state is shown.`);
  said(
    "product",
    view.product === params.get("product")?.toLowerCase(),
    (raw) => `${quoted(raw)} is not a product (${STATION_PRODUCTS.join(", ")}); ranking by ${view.product}.`,
  );
  said(
    "scale",
    view.scale === params.get("scale")?.toLowerCase(),
    (raw) => `${quoted(raw)} is not a colour scale (all or view); using ${view.scale}.`,
  );
  said(
    "mode",
    view.mode === params.get("mode")?.toLowerCase(),
    (raw) => `${quoted(raw)} is not a mode (near or route); showing stations near a place.`,
  );
  said("station", view.selected !== null, (raw) => `${quoted(raw)} is not a station id; no station is selected.`);
  return problems;
}

/** The view as a query string; defaults are left out so the plain page stays `/stations`. */
export function serializeView(view: StationsView): string {
  const params = new URLSearchParams();
  if (view.brand !== null) params.set("brand", view.brand);
  if (view.state !== null) params.set("state", view.state);
  if (view.search !== "") params.set("search", view.search);
  if (view.near !== null) {
    params.set("near", formatLatLng(view.near));
    if (view.nearLabel !== "") params.set("place", view.nearLabel);
  }
  if (view.radius !== DEFAULT_RADIUS_MILES) params.set("radius", String(view.radius));
  if (view.count !== DEFAULT_RESULT_COUNT) params.set("n", String(view.count));
  if (view.product !== DEFAULT_PRODUCT) params.set("product", view.product);
  if (view.selected !== null) params.set("station", view.selected);
  if (view.scale !== DEFAULT_COLOUR_SCALE) params.set("scale", view.scale);
  if (view.mode !== "near") params.set("mode", view.mode);
  serializeRouteView(view.route, params);
  return params.toString();
}

/** The BFF's filter semantics (one rule, lib/model/station-filter). */
export function filterStations(
  stations: readonly Station[],
  view: Pick<StationsView, "brand" | "state" | "search">,
): Station[] {
  return filterByStation(stations, view);
}

/** The stations inside the map's view (the "stations in view" colour scale). */
export function stationsInView(stations: readonly Station[], bounds: ViewBounds): Station[] {
  return stations.filter(
    (s) => s.lat >= bounds.south && s.lat <= bounds.north && s.lng >= bounds.west && s.lng <= bounds.east,
  );
}
