import { type CatalogStation, countBefore } from "@/lib/mirror";
import { distanceMiles, MILES_PER_DEGREE_LAT } from "@/lib/route/geo";

import { changePoints, type ObservedPrice, observedPriceAt, type ObservedPrices } from "./price-observations";

/**
 * The comparisons behind the savings (lib/insights/savings): for a fill at a station and an instant, the cheapest
 * price observed within the window at the OTHER stations within the radius (the same station at another price is a
 * price change, not a missed saving), and the median of the state's observed prices. Both depend only on which
 * observed spans the window reaches, so they are memoised per interval between the neighbourhood's change points.
 */

interface Neighbour {
  station: CatalogStation;
  miles: number;
}

export interface Comparison {
  /** No other station lies within the radius. */
  alone: boolean;
  /** Null when no other station within the radius has a price observed within the window. */
  cheapest: { neighbour: Neighbour; observed: ObservedPrice } | null;
  medianMilli: number | null;
}

/** Median of integers; an even count's is the mean of the middle two rounded half up. */
function medianOf(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  const upper = values[mid] ?? 0;
  return values.length % 2 === 1 ? upper : Math.floor(((values[mid - 1] ?? 0) + upper + 1) / 2);
}

const isBetter = (price: number, n: Neighbour, best: Comparison["cheapest"]): boolean =>
  best === null ||
  price < best.observed.priceMilli ||
  (price === best.observed.priceMilli &&
    (n.miles < best.neighbour.miles || (n.miles === best.neighbour.miles && n.station.id < best.neighbour.station.id)));

export class Comparer {
  readonly #byId = new Map<string, CatalogStation>();
  /** Stations with coordinates, by latitude (a latitude band is searched first, then the distance). */
  readonly #byLat: CatalogStation[];
  readonly #byState = new Map<string, CatalogStation[]>();
  readonly #neighbours = new Map<string, Neighbour[]>();
  readonly #points = new Map<string, number[]>();
  readonly #memo = new Map<string, Omit<Comparison, "medianMilli">>();
  readonly #medians = new Map<string, number | null>();

  constructor(
    stations: readonly CatalogStation[],
    private readonly observed: ObservedPrices,
    private readonly radiusMiles: number,
    private readonly windowMs: number,
  ) {
    for (const s of stations) {
      this.#byId.set(s.id, s);
      let list = this.#byState.get(s.state);
      if (!list) this.#byState.set(s.state, (list = []));
      list.push(s);
    }
    this.#byLat = stations.filter((s) => Number.isFinite(s.lat) && Number.isFinite(s.lng));
    this.#byLat.sort((a, b) => a.lat - b.lat);
  }

  station(id: string): CatalogStation | undefined {
    return this.#byId.get(id);
  }

  /** The station's own price observed nearest the instant, within the window. */
  ownPrice(stationId: string, atMs: number): ObservedPrice | null {
    return observedPriceAt(this.observed.get(stationId), atMs, this.windowMs);
  }

  /** The other stations within the radius (inclusive). */
  #near(origin: CatalogStation): Neighbour[] {
    let near = this.#neighbours.get(origin.id);
    if (near) return near;
    near = [];
    const band = this.radiusMiles / MILES_PER_DEGREE_LAT;
    // Miles per degree of longitude at the band's edge nearest a pole (the smallest there: a band never too narrow).
    const lngMiles = MILES_PER_DEGREE_LAT * Math.cos(Math.min(89, Math.abs(origin.lat) + band) * (Math.PI / 180));
    let lo = countBefore(this.#byLat, origin.lat - band, (s) => s.lat);
    for (; lo < this.#byLat.length; lo++) {
      const s = this.#byLat[lo];
      if (!s || s.lat > origin.lat + band) break;
      if (s.id === origin.id) continue;
      // A longitude band first (cheap): turf's distance only for stations that may be within the radius.
      if (Math.abs(s.lng - origin.lng) * lngMiles > this.radiusMiles * 1.01) continue;
      const miles = distanceMiles(origin, s);
      if (miles <= this.radiusMiles) near.push({ station: s, miles });
    }
    this.#neighbours.set(origin.id, near);
    return near;
  }

  /** The interval of `atMs` among the change points of these stations' observations (memo key part). */
  #era(key: string, stations: () => readonly CatalogStation[], atMs: number): number {
    let points = this.#points.get(key);
    if (!points) {
      const spans = stations().flatMap((s) => {
        const list = this.observed.get(s.id);
        return list === undefined ? [] : [list];
      });
      this.#points.set(key, (points = changePoints(spans, this.windowMs)));
    }
    return countBefore(points, atMs + 1, (ms) => ms);
  }

  compare(origin: CatalogStation, atMs: number): Comparison {
    const near = this.#near(origin);
    const memoKey = `${origin.id}|${String(this.#era(`n|${origin.id}`, () => near.map((n) => n.station), atMs))}`;
    let found = this.#memo.get(memoKey);
    if (!found) {
      let cheapest: Comparison["cheapest"] = null;
      for (const n of near) {
        const observed = observedPriceAt(this.observed.get(n.station.id), atMs, this.windowMs);
        if (observed !== null && isBetter(observed.priceMilli, n, cheapest)) cheapest = { neighbour: n, observed };
      }
      found = { alone: near.length === 0, cheapest };
      this.#memo.set(memoKey, found);
    }
    return { ...found, medianMilli: this.#median(origin.state, atMs) };
  }

  /** The median of the state's prices observed within the window of the instant (memoised per interval). */
  #median(state: string, atMs: number): number | null {
    const stations = this.#byState.get(state) ?? [];
    const key = `${state}|${String(this.#era(`s|${state}`, () => stations, atMs))}`;
    if (this.#medians.has(key)) return this.#medians.get(key) ?? null;
    const prices: number[] = [];
    for (const s of stations) {
      const observed = observedPriceAt(this.observed.get(s.id), atMs, this.windowMs);
      if (observed !== null) prices.push(observed.priceMilli);
    }
    const median = medianOf(prices);
    this.#medians.set(key, median);
    return median;
  }
}
