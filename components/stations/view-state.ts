import type { Station } from "@/lib/model";
import { STATION_PRODUCTS, type StationProduct } from "@/lib/model/products";
import { US_STATE_CODES } from "@/lib/model/us-states";
import type { LatLng } from "./nearby";

/**
 * The stations page's view as it lives in the URL, so a view can be shared: the filters (brand, state, search, product),
 * the "cheapest near here" question (a point, a radius, how many) and the selected station. Pure functions, unit-tested
 * without a browser.
 */

export const RADIUS_OPTIONS_MILES = [10, 25, 50, 100, 250] as const;
export type RadiusMiles = (typeof RADIUS_OPTIONS_MILES)[number];
export const DEFAULT_RADIUS_MILES: RadiusMiles = 50;
export const RESULT_COUNT_OPTIONS = [5, 10, 20, 50] as const;
export type ResultCount = (typeof RESULT_COUNT_OPTIONS)[number];
export const DEFAULT_RESULT_COUNT: ResultCount = 10;
/** Diesel is the catalog's own price; another product is read from station details (see product-ranking.ts). */
export const DEFAULT_PRODUCT: StationProduct = "diesel";
/** The longest search the BFF accepts (and the upstream's spec allows). */
export const MAX_SEARCH_LENGTH = 100;
/** A price stamp older than this is stale: drawn hollow on the map and flagged in the lists. */
export const STALE_AFTER_MS = 2 * 86_400_000;

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
}

export const DEFAULT_VIEW: StationsView = { brand: null, state: null, search: "", near: null, nearLabel: "", radius: DEFAULT_RADIUS_MILES, count: DEFAULT_RESULT_COUNT, product: DEFAULT_PRODUCT, selected: null };

const BRAND = /^[a-z0-9_-]{1,40}$/;
/** Station ids are UUIDs upstream; anything of another shape cannot name a station and is ignored. */
const STATION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LABEL_LENGTH = 80;

function includes<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** "35.2220,-101.8313" → a point; anything else (out of range, not numbers) → null. */
export function parseLatLng(value: string | null): LatLng | null {
  if (value === null) return null;
  const match = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(value);
  if (!match) return null;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

export function formatLatLng(point: LatLng): string {
  return `${point.lat.toFixed(4)},${point.lng.toFixed(4)}`;
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
  };
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
  return params.toString();
}

/** The BFF's filter semantics (brand and state exact, search a case-insensitive substring of name, city or loc number). */
export function filterStations(stations: readonly Station[], view: Pick<StationsView, "brand" | "state" | "search">): Station[] {
  const needle = view.search.toLowerCase();
  if (view.brand === null && view.state === null && needle === "") return stations as Station[];
  return stations.filter(
    (s) =>
      (view.brand === null || s.brand === view.brand) &&
      (view.state === null || s.state === view.state) &&
      (needle === "" || s.name.toLowerCase().includes(needle) || s.city.toLowerCase().includes(needle) || s.locNum.toLowerCase().includes(needle)),
  );
}

export function isStale(priceUpdatedAt: string | null, now: number): boolean {
  if (priceUpdatedAt === null) return true;
  return now - Date.parse(priceUpdatedAt) > STALE_AFTER_MS;
}

/**
 * Where "near" a typed place is, offline: coordinates ("35.22, -101.83"), a city with or without its state
 * ("Amarillo, TX", "amarillo"), or a state ("TX") — the centre of the catalog's stations there (the catalog is the only
 * gazetteer the dashboard has). Null when nothing matches.
 */
export function resolvePlace(query: string, stations: readonly Station[]): { point: LatLng; label: string } | null {
  const text = query.trim();
  if (text === "") return null;
  const coordinates = parseLatLng(text);
  if (coordinates !== null) return { point: coordinates, label: formatLatLng(coordinates).replace(",", ", ") };
  const parts = text.split(/\s*,\s*|\s+(?=[A-Za-z]{2}$)/).filter((p) => p !== "");
  const last = parts.at(-1)?.toUpperCase() ?? "";
  const state = parts.length >= 1 && includes(US_STATE_CODES, last) ? last : null;
  const city = (state === null ? parts.join(" ") : parts.slice(0, -1).join(" ")).toLowerCase();
  const matches = stations.filter((s) => (state === null || s.state === state) && (city === "" || s.city.toLowerCase() === city));
  const first = matches[0];
  if (first === undefined) return null;
  const point = { lat: matches.reduce((sum, s) => sum + s.lat, 0) / matches.length, lng: matches.reduce((sum, s) => sum + s.lng, 0) / matches.length };
  const label = city === "" ? (state ?? "") : `${first.city}, ${first.state}`;
  return { point, label };
}
