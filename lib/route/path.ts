import {
  angleBetween,
  at,
  cross,
  distanceMiles,
  dot,
  EARTH_RADIUS_MILES,
  interpolate,
  type LatLng,
  norm,
  toLatLng,
  toVector,
  type Vec3,
} from "./geo";

/**
 * A route without a road network: the great-circle legs between the points given (from, vias, to). The planner's
 * corridor and detours are measured against it; the page says it is a straight-line approximation.
 */
export interface RouteLeg {
  from: LatLng;
  to: LatLng;
  miles: number;
  /** Miles along the route where this leg begins (the sum of the legs before it). */
  startMiles: number;
}

export interface Route {
  points: LatLng[];
  legs: RouteLeg[];
  totalMiles: number;
}

/** Where a point lies relative to the route: miles along it to the nearest point of the path, and miles off it. */
export interface PathPosition {
  alongMiles: number;
  offMiles: number;
}

/** Points drawn every this many miles at most: smooth at any zoom of a US map (the curve bends little in 20 mi). */
const DEFAULT_STEP_MILES = 20;
/** Below this (radians, ≈ 6 mm) two points are one: the leg has no direction and its distance is the point's. */
const DEGENERATE = 1e-12;

function checkPoint(p: LatLng, i: number): void {
  if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180)
    throw new RangeError(
      `route point ${String(i + 1)} is not a latitude/longitude: ${String(p.lat)}, ${String(p.lng)}`,
    );
}

/** The route through `points` in order (at least two: from and to), one great-circle leg between each pair. */
export function routeThrough(points: readonly LatLng[]): Route {
  if (points.length < 2) throw new RangeError("a route needs at least two points (from and to)");
  points.forEach(checkPoint);
  const own = points.map((p) => ({ lat: p.lat, lng: p.lng }));
  const legs: RouteLeg[] = [];
  let startMiles = 0;
  for (let i = 1; i < own.length; i++) {
    const from = at(own, i - 1);
    const to = at(own, i);
    const miles = distanceMiles(from, to);
    legs.push({ from, to, miles, startMiles });
    startMiles += miles;
  }
  return { points: own, legs, totalMiles: startMiles };
}

/** Points along the great-circle legs, at most `stepMiles` apart, for drawing (a straight line in lat/lng is not the path). */
export function routePolyline(route: Route, stepMiles = DEFAULT_STEP_MILES): LatLng[] {
  if (!(stepMiles > 0)) throw new RangeError("the step must be a positive number of miles");
  const out: LatLng[] = [];
  route.legs.forEach((leg, i) => {
    const a = toVector(leg.from);
    const b = toVector(leg.to);
    const steps = Math.max(1, Math.ceil(leg.miles / stepMiles));
    if (i === 0) out.push({ ...leg.from });
    for (let k = 1; k < steps; k++) out.push(toLatLng(interpolate(a, b, k / steps)));
    out.push({ ...leg.to });
  });
  return out;
}

/** A leg ready for many distance questions: its end vectors, the unit normal of its great circle, its angle. */
interface PreparedLeg {
  a: Vec3;
  b: Vec3;
  /** Null when the leg's ends coincide (no great circle through them). */
  n: Vec3 | null;
  angle: number;
  startMiles: number;
  miles: number;
}

const prepared = new WeakMap<Route, PreparedLeg[]>();

/** The route's legs as vectors, computed once per route object (a corridor asks about thousands of stations). */
function preparedLegs(route: Route): PreparedLeg[] {
  let legs = prepared.get(route);
  if (!legs) {
    legs = route.legs.map((leg) => {
      const a = toVector(leg.from);
      const b = toVector(leg.to);
      const c = cross(a, b);
      const len = norm(c);
      const n: Vec3 | null = len < DEGENERATE ? null : [c[0] / len, c[1] / len, c[2] / len];
      return { a, b, n, angle: angleBetween(a, b), startMiles: leg.startMiles, miles: leg.miles };
    });
    prepared.set(route, legs);
  }
  return legs;
}

/** The position of the unit vector `p` against one leg: cross-track when its foot falls on the leg, else the nearer end. */
function positionOnLeg(leg: PreparedLeg, p: Vec3): PathPosition {
  if (leg.n) {
    const sinXt = dot(p, leg.n);
    // Along-track angle of the foot of the perpendicular: A·P' = A·P and (A×P')·n = (A×P)·n, as A ⊥ n.
    const along = Math.atan2(dot(cross(leg.a, p), leg.n), dot(leg.a, p));
    if (along >= 0 && along <= leg.angle) {
      const offMiles = Math.asin(Math.min(1, Math.abs(sinXt))) * EARTH_RADIUS_MILES;
      return { alongMiles: leg.startMiles + Math.min(leg.miles, along * EARTH_RADIUS_MILES), offMiles };
    }
  }
  // The foot is beyond an end (or there is no leg to speak of): the nearest point of the leg is an end.
  const toA = angleBetween(leg.a, p) * EARTH_RADIUS_MILES;
  const toB = angleBetween(leg.b, p) * EARTH_RADIUS_MILES;
  return toA <= toB
    ? { alongMiles: leg.startMiles, offMiles: toA }
    : { alongMiles: leg.startMiles + leg.miles, offMiles: toB };
}

/** `positionOnRoute` for a point already a unit vector (the corridor's inner loop). */
export function positionOfVector(route: Route, p: Vec3): PathPosition {
  let best: PathPosition | null = null;
  for (const leg of preparedLegs(route)) {
    const here = positionOnLeg(leg, p);
    // The first leg wins a tie (a point level with a via point): the earlier mile along the route.
    if (best === null || here.offMiles < best.offMiles) best = here;
  }
  if (best === null) throw new RangeError("the route has no legs");
  return best;
}

/**
 * Miles along the route to the nearest point of the path, and the miles from `p` to that point — exact on the
 * sphere: the cross-track distance where the perpendicular's foot falls on a leg, else the distance to the leg's
 * nearer end. Over several legs, the nearest leg (the earlier one on a tie).
 */
export function positionOnRoute(route: Route, p: LatLng): PathPosition {
  return positionOfVector(route, toVector(p));
}
