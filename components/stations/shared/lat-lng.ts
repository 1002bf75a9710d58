import { formatCoordinates } from "@/lib/format/numbers";
import type { LatLng } from "@/lib/route/geo";

export type { LatLng };

/** Coordinates as the stations page reads and writes them (the near point, the route's points). */

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

/** A point as a person reads it where it has no place name: "35.2220, -101.8313" (the link's form, with a space). */
export function pointLabel(point: LatLng): string {
  return formatCoordinates(point);
}
