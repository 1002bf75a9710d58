import distance from "@turf/distance";
import { point } from "@turf/helpers";
import type { Station } from "@/lib/model";

/** A point on the map: where "near here" is. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Statute miles per degree of latitude (on turf's mean-radius sphere, 6,371.0088 km): for a cheap bounding box. */
const MILES_PER_DEGREE_LAT = 69.093;

/** Great-circle distance in statute miles (turf's haversine on the mean Earth radius). */
export function distanceMiles(a: LatLng, b: LatLng): number {
  return distance(point([a.lng, a.lat]), point([b.lng, b.lat]), { units: "miles" });
}

export interface RankedStation {
  station: Station;
  price: number;
  /** Null in a ranking without a point (the cheapest of all stations shown). */
  distanceMiles: number | null;
  /** Price minus the area's average price, in dollars per gallon (negative = cheaper than the area). */
  diffFromAverage: number;
}

export interface NearbyRanking {
  /** The `limit` cheapest stations within the radius: price ascending, then nearer first, then loc number. */
  items: RankedStation[];
  /** Stations with a price within the radius (all of them, not just the ranked ones). */
  inRadius: number;
  /** Stations within the radius that have no price: they cannot be ranked. */
  unpriced: number;
  /** Mean price of the stations with a price within the radius; null when none. */
  areaAverage: number | null;
}

/**
 * The cheapest stations within `radiusMiles` of `origin` (the edge counts as inside). A latitude/longitude box drops
 * the far stations before the exact distance is computed, so a ranking over 50,000 stations stays instant.
 */
export function rankNearby(stations: readonly Station[], origin: LatLng, radiusMiles: number, limit: number): NearbyRanking {
  // The box is a little larger than the circle (1 % margin): the exact distance decides.
  const dLat = (radiusMiles / MILES_PER_DEGREE_LAT) * 1.01;
  const cosLat = Math.max(Math.cos((Math.min(89, Math.abs(origin.lat) + dLat) * Math.PI) / 180), 1e-6);
  const dLng = Math.min(180, dLat / cosLat);
  const within: { station: Station; price: number; distanceMiles: number }[] = [];
  let unpriced = 0;
  for (const station of stations) {
    if (Math.abs(station.lat - origin.lat) > dLat) continue;
    if (Math.abs(station.lng - origin.lng) > dLng && dLng < 180) continue;
    const miles = distanceMiles(origin, station);
    if (miles > radiusMiles) continue;
    if (station.price === null) {
      unpriced++;
      continue;
    }
    within.push({ station, price: Number(station.price), distanceMiles: miles });
  }
  const areaAverage = within.length === 0 ? null : within.reduce((sum, s) => sum + s.price, 0) / within.length;
  within.sort((a, b) => a.price - b.price || a.distanceMiles - b.distanceMiles || a.station.locNum.localeCompare(b.station.locNum));
  const items = within.slice(0, limit).map((s) => ({ ...s, diffFromAverage: s.price - (areaAverage ?? s.price) }));
  return { items, inRadius: within.length, unpriced, areaAverage };
}

/** The `limit` cheapest of the given stations (no point chosen yet), compared with their average price. */
export function rankCheapest(stations: readonly Station[], limit: number): NearbyRanking {
  const priced: { station: Station; price: number; distanceMiles: null }[] = [];
  for (const station of stations) if (station.price !== null) priced.push({ station, price: Number(station.price), distanceMiles: null });
  const areaAverage = priced.length === 0 ? null : priced.reduce((sum, s) => sum + s.price, 0) / priced.length;
  priced.sort((a, b) => a.price - b.price || a.station.locNum.localeCompare(b.station.locNum));
  const items = priced.slice(0, limit).map((s) => ({ ...s, diffFromAverage: s.price - (areaAverage ?? s.price) }));
  return { items, inRadius: priced.length, unpriced: stations.length - priced.length, areaAverage };
}

/** "12¢ below area average", "3¢ above area average", "at the area average" (within half a cent). */
export function describeDifference(diffDollars: number): string {
  const cents = Math.round(Math.abs(diffDollars) * 100);
  if (cents === 0) return "at the area average";
  return `${String(cents)}¢ ${diffDollars < 0 ? "below" : "above"} area average`;
}
