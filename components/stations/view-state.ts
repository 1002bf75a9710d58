import { quoted } from "@/lib/format/quoted";
import type { Station } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";
import { STATION_PRODUCTS, type StationProduct } from "@/lib/model/products";
import { filterStations as filterByStation } from "@/lib/model/station-filter";
import { US_STATE_CODES } from "@/lib/model/us-states";

import { formatLatLng, parseLatLng, pointLabel } from "./lat-lng";
import type { LatLng } from "./nearby";
import { DEFAULT_ROUTE_VIEW, parseRouteView, type RouteView, serializeRouteView } from "./route-view-state";

export { formatLatLng, pointLabel };

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
/** Diesel is the catalog's own price; another product is read from station details (see product-ranking.ts). */
export const DEFAULT_PRODUCT: StationProduct = "diesel";
/** The longest search the BFF accepts (its one home is lib/model/limits; re-exported for this folder's filters). */
// Re-exported for this folder; the station page imports ./price-age alone (it needs none of the map's view state).
export { isStale, STALE_AFTER_MS } from "./price-age";

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

/** The map's view: latitudes and longitudes of its edges. */
export interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

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

/** A place a typed name can mean: where it is, how it reads, and how many of the catalog's stations are there. */
export interface Place {
  point: LatLng;
  label: string;
  stationCount: number;
}

/**
 * Where "near" a typed place is, offline: coordinates ("35.22, -101.83"), a city with or without its state
 * ("Amarillo, TX", "amarillo"), or a state ("TX") — the centre of the catalog's stations there (the catalog is the only
 * gazetteer the dashboard has). A city name alone that several states have ("Springfield") gives one place per state,
 * sorted by label, for the person to choose from: averaging them would put the point between the cities. Empty when
 * nothing matches.
 */
export function resolvePlace(query: string, stations: readonly Station[]): Place[] {
  const text = query.trim();
  if (text === "") return [];
  const coordinates = parseLatLng(text);
  if (coordinates !== null) return [{ point: coordinates, label: pointLabel(coordinates), stationCount: 0 }];
  const parts = text.split(/\s*,\s*|\s+(?=[A-Za-z]{2}$)/).filter((p) => p !== "");
  const last = parts.at(-1)?.toUpperCase() ?? "";
  const state = parts.length >= 1 && includes(US_STATE_CODES, last) ? last : null;
  const city = (state === null ? parts.join(" ") : parts.slice(0, -1).join(" ")).toLowerCase();
  // One group per state: a state's own centre, or one city of that name in that state.
  const groups = new Map<string, Station[]>();
  for (const s of stations) {
    if ((state !== null && s.state !== state) || (city !== "" && s.city.toLowerCase() !== city)) continue;
    const group = groups.get(s.state);
    if (group === undefined) groups.set(s.state, [s]);
    else group.push(s);
  }
  const places = [...groups.values()].flatMap((matches): Place[] => {
    const [first] = matches;
    if (first === undefined) return [];
    return [
      {
        point: {
          lat: matches.reduce((sum, s) => sum + s.lat, 0) / matches.length,
          lng: matches.reduce((sum, s) => sum + s.lng, 0) / matches.length,
        },
        label: city === "" ? first.state : `${first.city}, ${first.state}`,
        stationCount: matches.length,
      },
    ];
  });
  return places.sort((a, b) => a.label.localeCompare(b.label));
}
