import type { Station } from "@/lib/model";

import { type LatLng, MILES_PER_DEGREE_LAT, toVector } from "./geo";
import { checkOptions, type RouteOptions } from "./options";
import { type PathPosition, positionOfVector, type Route, routePolyline } from "./path";

/** A station with the price the planner compares (the product chosen), as a number and as the upstream's text. */
export interface PricedStation {
  station: Station;
  price: number;
  priceText: string;
}

/** The one rule for a price the planner can use: a finite number above $0 (a $0 or unreadable price is no price). */
export function isUsablePrice(price: number): boolean {
  return Number.isFinite(price) && price > 0;
}

/** A station within the corridor, where it lies on the route and what reaching it costs in road miles and hours. */
export interface Candidate extends PricedStation, PathPosition {
  /** There and back: 2 × miles off the path × circuity. */
  detourMiles: number;
  detourHours: number;
}

/** Boxes cover the path this many miles at a time: tight around a diagonal route, few enough to test quickly. */
const BOX_STEP_MILES = 20;
const SEGMENTS_PER_BOX = 5;
/**
 * Margin over the corridor for a box: between two drawn points 20 mi apart the great circle departs from their
 * box by far less than a mile (its sagitta is ≈ 0.013 mi). The exact distance decides afterwards.
 */
const BOX_MARGIN_MILES = 1;

interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  /** False when a box would straddle the antimeridian: its longitude test is skipped (never the case in the US). */
  checkLng: boolean;
}

/** Latitude/longitude boxes that together hold every point within `corridorMiles` of the path. */
function corridorBoxes(route: Route, corridorMiles: number): Box[] {
  const line = routePolyline(route, BOX_STEP_MILES);
  const dLat = (corridorMiles + BOX_MARGIN_MILES) / MILES_PER_DEGREE_LAT;
  const boxes: Box[] = [];
  // A route has two points at least, so the line has one segment at least.
  for (let i = 0; i < line.length - 1; i += SEGMENTS_PER_BOX) {
    const chunk = line.slice(i, i + SEGMENTS_PER_BOX + 1);
    const lats = chunk.map((p: LatLng) => p.lat);
    const lngs = chunk.map((p: LatLng) => p.lng);
    const minLat = Math.min(...lats) - dLat;
    const maxLat = Math.max(...lats) + dLat;
    const cosLat = Math.cos((Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat))) * Math.PI) / 180);
    const dLng = dLat / Math.max(cosLat, 1e-6);
    const minLng = Math.min(...lngs) - dLng;
    const maxLng = Math.max(...lngs) + dLng;
    boxes.push({ minLat, maxLat, minLng, maxLng, checkLng: maxLng - minLng < 180 && minLng > -180 && maxLng < 180 });
  }
  return boxes;
}

function inSomeBox(boxes: readonly Box[], lat: number, lng: number): boolean {
  for (const b of boxes) {
    if (lat < b.minLat || lat > b.maxLat) continue;
    if (b.checkLng && (lng < b.minLng || lng > b.maxLng)) continue;
    return true;
  }
  return false;
}

/**
 * The stations within `options.corridorMiles` of the route (the edge counts as inside), with their position and
 * detour, in route order (miles along, then loc number). Boxes drop the far stations before the exact spherical
 * distance, so 50,000 stations take milliseconds. Stations without usable coordinates or a price above $0 are left
 * out.
 */
export function corridorCandidates(
  route: Route,
  stations: readonly PricedStation[],
  options: RouteOptions,
): Candidate[] {
  checkOptions(options);
  const boxes = corridorBoxes(route, options.corridorMiles);
  const out: Candidate[] = [];
  for (const priced of stations) {
    const { lat, lng } = priced.station;
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !isUsablePrice(priced.price)) continue;
    if (!inSomeBox(boxes, lat, lng)) continue;
    const position = positionOfVector(route, toVector({ lat, lng }));
    if (position.offMiles > options.corridorMiles) continue;
    const detourMiles = 2 * position.offMiles * options.circuity;
    out.push({ ...priced, ...position, detourMiles, detourHours: detourMiles / options.detourSpeedMph });
  }
  return out.sort(byRouteOrder);
}

/** Miles along to the thousandth (5 ft: float noise between two stations level with each other), then loc number. */
export function byRouteOrder(a: Candidate, b: Candidate): number {
  return (
    Math.round(a.alongMiles * 1000) - Math.round(b.alongMiles * 1000) ||
    a.station.locNum.localeCompare(b.station.locNum)
  );
}
