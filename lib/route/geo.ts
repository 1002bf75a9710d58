import distance from "@turf/distance";
import { point } from "@turf/helpers";

/**
 * The one sphere of the project: turf's mean Earth radius (6,371,008.8 m). Every great-circle figure — the stations
 * page's distances, the savings' radius, the exception rules and the route planner — is measured on it, so a station
 * "9.9 mi away" on one page is not "10.0 mi" on another.
 */

/** A point on the map. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** turf's mean Earth radius in statute miles. */
export const EARTH_RADIUS_MILES = 6_371_008.8 / 1609.344;

/** Statute miles per degree of latitude on that sphere (≈ 69.093): for cheap bounding boxes. */
export const MILES_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS_MILES) / 180;

const RAD = Math.PI / 180;

/** Great-circle distance in statute miles (turf's haversine on the mean Earth radius). */
export function distanceMiles(a: LatLng, b: LatLng): number {
  return distance(point([a.lng, a.lat]), point([b.lng, b.lat]), { units: "miles" });
}

/** A unit vector from the Earth's centre (x through lng 0 on the equator, z through the north pole). */
export type Vec3 = readonly [number, number, number];

export function toVector(p: LatLng): Vec3 {
  const lat = p.lat * RAD;
  const lng = p.lng * RAD;
  const c = Math.cos(lat);
  return [c * Math.cos(lng), c * Math.sin(lng), Math.sin(lat)];
}

export function toLatLng(v: Vec3): LatLng {
  const [x, y, z] = v;
  return { lat: Math.atan2(z, Math.hypot(x, y)) / RAD, lng: Math.atan2(y, x) / RAD };
}

export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function norm(a: Vec3): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/** The angle between two unit vectors in radians; atan2 keeps it exact for tiny and near-antipodal angles alike. */
export function angleBetween(a: Vec3, b: Vec3): number {
  return Math.atan2(norm(cross(a, b)), dot(a, b));
}

/** The point a fraction `t` of the way from `a` to `b` along their great circle (spherical interpolation). */
export function interpolate(a: Vec3, b: Vec3, t: number): Vec3 {
  const omega = angleBetween(a, b);
  if (omega < 1e-12) return a;
  const s = Math.sin(omega);
  const ka = Math.sin((1 - t) * omega) / s;
  const kb = Math.sin(t * omega) / s;
  return [ka * a[0] + kb * b[0], ka * a[1] + kb * b[1], ka * a[2] + kb * b[2]];
}

/** `a[i]`, for index arithmetic the type checker cannot follow: out of range is a bug of ours, and says so. */
export function at<T>(a: ArrayLike<T>, i: number): T {
  const v = a[i];
  if (v === undefined) throw new RangeError(`index ${String(i)} out of range (length ${String(a.length)})`);
  return v;
}

/**
 * `a[i]` of a Float64Array in hot loops: one array type, so the engine keeps the access fast (the generic `at`
 * over every kind of array does not). Out of range gives NaN, which no comparison accepts.
 */
export function num(a: Float64Array, i: number): number {
  return a[i] ?? Number.NaN;
}
