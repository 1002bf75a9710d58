/**
 * Geography derived from the static tables of `geo-data.ts` (computed once, lazily; pure functions of the tables):
 * the places of each state (cities and interstate waypoints), the interstate segments stations are drawn along with
 * their mileposts, and the largest city of each state. Plus the distance and plausibility checks every generated
 * point goes through.
 */
import {
  CITIES,
  type City,
  type Interstate,
  INTERSTATES,
  type RoutePlace,
  STATE_BOUNDS,
  type StateCode,
} from "./geo-data";

/** A generated point must be within this distance of a city or waypoint of its state. */
export const MAX_PLACE_KM = 60;

export const KM_PER_DEG = 111.32;
/** Road miles per straight-line km between waypoints (roads wind about 5% more than the chord). */
const ROAD_MILES_PER_KM = 1.05 / 1.609;
export const DEG = Math.PI / 180;

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a =
    Math.sin(((lat2 - lat1) * DEG) / 2) ** 2 +
    Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(((lng2 - lng1) * DEG) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

interface Place {
  name: string;
  state: StateCode;
  lat: number;
  lng: number;
}

export interface Segment {
  route: string;
  a: { lat: number; lng: number };
  b: { lat: number; lng: number };
  lengthKm: number;
  jitterKm: number;
  /** Fixed state when one end is a state-line marker; otherwise null (nearer endpoint decides). */
  fixedState: StateCode | null;
  aState: StateCode | null;
  bState: StateCode | null;
  /** A state-line marker at one end, to keep stations clear of it. */
  stateLine: { lat: number; lng: number } | null;
  /** Milepost at `a` and at `b`, accounting for where each state's numbering restarts. */
  mileA: number;
  mileB: number;
}

interface Geography {
  placesByState: ReadonlyMap<StateCode, readonly Place[]>;
  segments: readonly Segment[];
  largestCity: ReadonlyMap<StateCode, City>;
}

let geography: Geography | undefined;

export function getGeography(): Geography {
  if (geography) return geography;
  const placesByState = new Map<StateCode, Place[]>();
  const addPlace = (p: Place): void => {
    const list = placesByState.get(p.state) ?? [];
    if (!list.some((q) => q.name === p.name && Math.abs(q.lat - p.lat) < 0.05 && Math.abs(q.lng - p.lng) < 0.05))
      list.push(p);
    placesByState.set(p.state, list);
  };
  const largestCity = new Map<StateCode, City>();
  for (const city of CITIES) {
    addPlace(city);
    const best = largestCity.get(city.state);
    if (!best || city.weight > best.weight) largestCity.set(city.state, city);
  }
  const segments: Segment[] = [];
  for (const route of INTERSTATES) segments.push(...routeSegments(route, routeMiles(route, addPlace)));
  geography = { placesByState, segments, largestCity };
  return geography;
}

/**
 * The milepost at each point of a route: numbering restarts at 0 where the route enters a new state. Each waypoint
 * is handed to `addPlace` on the way.
 */
function routeMiles(route: Interstate, addPlace: (p: Place) => void): number[] {
  let cum = 0;
  let runStartKm = 0;
  let runOffsetMiles = route.startMile;
  let prevState: StateCode | null = null;
  const miles: number[] = [];
  route.points.forEach((p, i) => {
    const prev = route.points[i - 1];
    if (prev) cum += haversineKm(prev.lat, prev.lng, p.lat, p.lng);
    if (p.kind === "line") {
      runStartKm = cum;
      runOffsetMiles = 0;
      prevState = null;
    } else {
      if (prevState !== null && prevState !== p.state && prev) {
        // A state change without a marker (only across skipped bridges): the boundary is the midpoint.
        runStartKm = cum - haversineKm(prev.lat, prev.lng, p.lat, p.lng) / 2;
        runOffsetMiles = 0;
      }
      prevState = p.state;
      addPlace(p);
    }
    miles.push(runOffsetMiles + (cum - runStartKm) * ROAD_MILES_PER_KM);
  });
  return miles;
}

/** The segments of a route stations may be drawn along: at least one end is a place, skipped stretches are left out. */
function routeSegments(route: Interstate, miles: readonly number[]): Segment[] {
  const segments: Segment[] = [];
  route.points.forEach((a, i) => {
    const b = route.points[i + 1];
    if (!b) return;
    if (a.kind === "place" && a.skipNext) return;
    const aPlace: RoutePlace | null = a.kind === "place" ? a : null;
    const bPlace: RoutePlace | null = b.kind === "place" ? b : null;
    if (!aPlace && !bPlace) return;
    const lengthKm = haversineKm(a.lat, a.lng, b.lat, b.lng);
    // The milepost at a state-line marker is the end of the previous state's numbering, not the start of the next.
    const mileA = a.kind === "line" ? 0 : (miles[i] ?? 0);
    const mileB = b.kind === "line" ? mileA + lengthKm * ROAD_MILES_PER_KM : (miles[i + 1] ?? 0);
    segments.push({
      route: route.name,
      a,
      b,
      lengthKm,
      jitterKm: a.jitterKm,
      fixedState: !aPlace ? (bPlace?.state ?? null) : !bPlace ? aPlace.state : null,
      aState: aPlace?.state ?? null,
      bState: bPlace?.state ?? null,
      stateLine: a.kind === "line" ? a : b.kind === "line" ? b : null,
      mileA,
      mileB,
    });
  });
  return segments;
}

/** Inside the state's bounding box (a rough but real one). */
export function inStateBounds(lat: number, lng: number, state: StateCode): boolean {
  const box = STATE_BOUNDS[state];
  return !(lat < box.minLat || lat > box.maxLat || lng < box.minLng || lng > box.maxLng);
}

/** Inside the state's bounding box and within MAX_PLACE_KM of one of its cities or interstate waypoints. */
export function isPlausibleLocation(lat: number, lng: number, state: StateCode): boolean {
  if (!inStateBounds(lat, lng, state)) return false;
  return nearestPlace(lat, lng, state).distanceKm <= MAX_PLACE_KM;
}

export function nearestPlace(lat: number, lng: number, state: StateCode): { place: Place | null; distanceKm: number } {
  let place: Place | null = null;
  let distanceKm = Infinity;
  for (const p of getGeography().placesByState.get(state) ?? []) {
    const d = haversineKm(lat, lng, p.lat, p.lng);
    if (d < distanceKm) {
      distanceKm = d;
      place = p;
    }
  }
  return { place, distanceKm };
}
