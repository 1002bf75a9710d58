import type { Station } from "@/lib/model";
import { distanceMiles, type LatLng, MILES_PER_DEGREE_LAT } from "@/lib/route/geo";

// The project's one great-circle distance lives with the route planner (lib/route/geo); this folder's tests import it
// from here (the point type's home here is ./lat-lng).
export { distanceMiles };

export interface RankedStation {
  station: Station;
  price: number;
  /** The price as the upstream gave it (exact decimal string), for display. */
  priceText: string;
  /** When that price was last updated (the catalog's stamp, or the station detail's). */
  priceUpdatedAt: string | null;
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

export interface StationWithin {
  station: Station;
  distanceMiles: number;
}

/**
 * Every station within `radiusMiles` of `origin` (the edge counts as inside), in the order given. A latitude/longitude
 * box drops the far stations before the exact distance is computed, so this stays instant over 50,000 stations.
 */
export function findWithin(stations: readonly Station[], origin: LatLng, radiusMiles: number): StationWithin[] {
  // The box is a little larger than the circle (1 % margin): the exact distance decides.
  const dLat = (radiusMiles / MILES_PER_DEGREE_LAT) * 1.01;
  const cosLat = Math.max(Math.cos((Math.min(89, Math.abs(origin.lat) + dLat) * Math.PI) / 180), 1e-6);
  const dLng = Math.min(180, dLat / cosLat);
  const within: StationWithin[] = [];
  for (const station of stations) {
    if (Math.abs(station.lat - origin.lat) > dLat) continue;
    if (Math.abs(station.lng - origin.lng) > dLng && dLng < 180) continue;
    const miles = distanceMiles(origin, station);
    if (miles <= radiusMiles) within.push({ station, distanceMiles: miles });
  }
  return within;
}

/** Nearest first, then loc number: the order in which stations' detail prices are checked. */
export function sortByDistance(within: readonly StationWithin[]): StationWithin[] {
  return [...within].sort(
    (a, b) => a.distanceMiles - b.distanceMiles || a.station.locNum.localeCompare(b.station.locNum),
  );
}

interface Priced {
  station: Station;
  price: number;
  priceText: string;
  priceUpdatedAt: string | null;
  distanceMiles: number | null;
}

/**
 * The price at or under which the `limit` cheapest are (Infinity when there are no more than `limit`): only those
 * stations need the full comparison, instead of sorting the whole catalog with string comparisons of loc numbers.
 */
export function cheapestPriceBound(priced: readonly { price: number }[], limit: number): number {
  if (priced.length <= limit) return Infinity;
  if (limit <= 0) return -Infinity;
  const prices = Float64Array.from(priced, (s) => s.price).sort();
  return prices[limit - 1] ?? Infinity;
}

/** Cheapest first (then nearer, then loc number); the first `limit`, each compared with the mean of all `priced`. */
export function rankPriced(
  priced: readonly Priced[],
  limit: number,
): { items: RankedStation[]; areaAverage: number | null } {
  const areaAverage = priced.length === 0 ? null : priced.reduce((sum, s) => sum + s.price, 0) / priced.length;
  const bound = cheapestPriceBound(priced, limit);
  const items = priced
    .filter((s) => s.price <= bound)
    .sort(
      (a, b) =>
        a.price - b.price ||
        (a.distanceMiles ?? 0) - (b.distanceMiles ?? 0) ||
        a.station.locNum.localeCompare(b.station.locNum),
    )
    .slice(0, limit)
    .map((s) => ({ ...s, diffFromAverage: s.price - (areaAverage ?? s.price) }));
  return { items, areaAverage };
}

/** The cheapest stations within `radiusMiles` of `origin` by the catalog's price. */
export function rankNearby(
  stations: readonly Station[],
  origin: LatLng,
  radiusMiles: number,
  limit: number,
): NearbyRanking {
  const priced: Priced[] = [];
  let unpriced = 0;
  for (const { station, distanceMiles: miles } of findWithin(stations, origin, radiusMiles)) {
    if (station.price === null) unpriced++;
    else
      priced.push({
        station,
        price: Number(station.price),
        priceText: station.price,
        priceUpdatedAt: station.priceUpdatedAt,
        distanceMiles: miles,
      });
  }
  const { items, areaAverage } = rankPriced(priced, limit);
  return { items, inRadius: priced.length, unpriced, areaAverage };
}

/** The `limit` cheapest of the given stations (no point chosen yet), compared with their average price. */
export function rankCheapest(stations: readonly Station[], limit: number): NearbyRanking {
  const priced: Priced[] = [];
  for (const station of stations)
    if (station.price !== null)
      priced.push({
        station,
        price: Number(station.price),
        priceText: station.price,
        priceUpdatedAt: station.priceUpdatedAt,
        distanceMiles: null,
      });
  const { items, areaAverage } = rankPriced(priced, limit);
  return { items, inRadius: priced.length, unpriced: stations.length - priced.length, areaAverage };
}

/** "12¢ below area average", "3¢ above area average", "at the area average" (within half a cent). */
export function describeDifference(diffDollars: number): string {
  const cents = Math.round(Math.abs(diffDollars) * 100);
  if (cents === 0) return "at the area average";
  return `${String(cents)}¢ ${diffDollars < 0 ? "below" : "above"} area average`;
}
