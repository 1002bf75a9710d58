import {
  type CatalogStation,
  countBefore,
  latestPrice,
  localDayEndMs,
  type MirrorCatalog,
  priceInForceBefore,
} from "@/lib/mirror/catalog";
import { fromMinorUnits } from "@/lib/model";
import type { MissedSaving, PriceBasis, SavingsFigures } from "@/lib/model/insight-savings";
import { classifyProduct } from "@/lib/model/product-classes";
import { distanceMiles, MILES_PER_DEGREE_LAT } from "@/lib/route/geo";

import { dollars, TopMissed } from "./savings-top";

/**
 * What the fleet could have saved (issue 16 item 4), computed exactly: per completed diesel fill, the cheapest
 * catalog price within `radiusMiles` (great-circle) of the station it happened at — that station included — and the
 * median catalog price of the station's state. Savings are Σ max(0, paid − cheapest) × gallons in integer
 * micro-dollars (thousandths of a dollar × thousandths of a gallon), rounded half up to cents once, at the end.
 *
 * Which prices: the ones in force on the fill's purchase-local day where the recorded history knows them for every
 * station compared; otherwise today's catalog (the latest walk's prices) for the whole comparison, and the figures
 * count how many fills used each. A state's median takes each station's price in force that day where known, else its
 * price today; an even count's median is the mean of the middle two, rounded half up to a thousandth.
 */

const TOP_MISSED = 10;

/** One completed fill as the mirror holds it, with its purchase-local date. */
export interface SavingsFill {
  id: string;
  /** The fill's details below are read for the largest missed savings only (savingsFor); "" until then. */
  reference: string;
  atMs: number;
  offsetMin: number | null;
  localDate: string;
  stationId: string;
  stationName: string;
  stationCity: string;
  stationState: string;
  driverId: string;
  driverName: string;
  product: string;
  gallonsMilli: number;
  priceMilli: number;
}

/** The catalog prices diesel only ("diesel", "Diesel #2", "ULSD", …; not DEF): other products are not compared. */
const isComparedProduct = (product: string): boolean => classifyProduct(product).productClass === "diesel";

interface Neighbour {
  station: CatalogStation;
  miles: number;
}

export interface Comparison {
  basis: PriceBasis;
  /** Null when no station within the radius has a price. */
  cheapest: { neighbour: Neighbour; priceMilli: number } | null;
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

/** The comparisons of a catalog over a radius, memoised per station and day. */
class Comparer {
  readonly #byId = new Map<string, CatalogStation>();
  /** Stations with coordinates, by latitude (a latitude band is searched first, then the distance). */
  readonly #byLat: CatalogStation[];
  readonly #byState = new Map<string, CatalogStation[]>();
  readonly #neighbours = new Map<string, Neighbour[]>();
  readonly #memo = new Map<string, Comparison>();
  readonly #medians = new Map<string, number | null>();
  readonly #changes = new Map<string, number[]>();
  readonly #stateChanges = new Map<string, number[]>();

  constructor(
    private readonly catalog: MirrorCatalog,
    private readonly radiusMiles: number,
  ) {
    for (const s of catalog.stations) {
      this.#byId.set(s.id, s);
      let list = this.#byState.get(s.state);
      if (!list) this.#byState.set(s.state, (list = []));
      list.push(s);
    }
    this.#byLat = catalog.stations.filter((s) => Number.isFinite(s.lat) && Number.isFinite(s.lng));
    this.#byLat.sort((a, b) => a.lat - b.lat);
  }

  station(id: string): CatalogStation | undefined {
    return this.#byId.get(id);
  }

  /** Stations within the radius (inclusive), the station itself included. */
  #near(origin: CatalogStation): Neighbour[] {
    let near = this.#neighbours.get(origin.id);
    if (near) return near;
    near = [];
    const band = this.radiusMiles / MILES_PER_DEGREE_LAT;
    // Miles per degree of longitude at the band's edge nearest a pole (the smallest there: a band never too narrow).
    const lngMiles = MILES_PER_DEGREE_LAT * Math.cos(Math.min(89, Math.abs(origin.lat) + band) * (Math.PI / 180));
    let lo = 0;
    let hi = this.#byLat.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#byLat[mid]?.lat ?? Infinity) < origin.lat - band) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.#byLat.length; i++) {
      const s = this.#byLat[i];
      if (!s || s.lat > origin.lat + band) break;
      // A longitude band first (cheap): turf's distance only for stations that may be within the radius.
      if (Math.abs(s.lng - origin.lng) * lngMiles > this.radiusMiles * 1.01) continue;
      const miles = s.id === origin.id ? 0 : distanceMiles(origin, s);
      if (miles <= this.radiusMiles) near.push({ station: s, miles });
    }
    this.#neighbours.set(origin.id, near);
    return near;
  }

  #today(s: CatalogStation): number | null {
    return s.current ? latestPrice(this.catalog.prices.get(s.id)) : null;
  }

  /** The sorted instants at which any of these stations' prices changed (its records' starts). */
  #changesOf(stations: readonly CatalogStation[]): number[] {
    const at = new Set<number>();
    for (const s of stations) for (const r of this.catalog.prices.get(s.id) ?? []) at.add(r.updatedMs);
    return [...at].sort((a, b) => a - b);
  }

  /**
   * The comparison for a fill at `origin` on a local date. It depends only on which price records began before that
   * day ended, so it is memoised per "era": the number of the neighbourhood's price changes before the day's end.
   */
  compare(origin: CatalogStation, localDate: string, offsetMin: number | null): Comparison {
    const endMs = localDayEndMs(localDate, offsetMin);
    let changes = this.#changes.get(origin.id);
    if (!changes) this.#changes.set(origin.id, (changes = this.#changesOf(this.#near(origin).map((n) => n.station))));
    const memoKey = `${origin.id}|${String(countBefore(changes, endMs, (ms) => ms))}`;
    const known = this.#memo.get(memoKey);
    if (known) return known;
    const near = this.#near(origin);
    // History, when it knows the day's price of every station compared that has ever had one.
    const historical = near.map((n) => {
      const records = this.catalog.prices.get(n.station.id);
      return records === undefined || records.length === 0 ? undefined : priceInForceBefore(records, endMs);
    });
    const basis: PriceBasis = historical.some((p) => p === null) ? "today" : "history";
    let cheapest: Comparison["cheapest"] = null;
    near.forEach((n, i) => {
      const price = basis === "history" ? (historical[i] ?? null) : this.#today(n.station);
      if (price === null) return;
      const better =
        cheapest === null ||
        price < cheapest.priceMilli ||
        (price === cheapest.priceMilli &&
          (n.miles < cheapest.neighbour.miles ||
            (n.miles === cheapest.neighbour.miles && n.station.id < cheapest.neighbour.station.id)));
      if (better) cheapest = { neighbour: n, priceMilli: price };
    });
    const comparison: Comparison = { basis, cheapest, medianMilli: this.#median(origin.state, basis, endMs) };
    this.#memo.set(memoKey, comparison);
    return comparison;
  }

  /** The state's median: today's prices, or each station's price in force that day where known (memoised per era). */
  #median(state: string, basis: PriceBasis, endMs: number): number | null {
    const stations = this.#byState.get(state) ?? [];
    let key = `${state}|today`;
    if (basis === "history") {
      let changes = this.#stateChanges.get(state);
      if (!changes) this.#stateChanges.set(state, (changes = this.#changesOf(stations)));
      key = `${state}|${String(countBefore(changes, endMs, (ms) => ms))}`;
    }
    if (this.#medians.has(key)) return this.#medians.get(key) ?? null;
    const prices: number[] = [];
    for (const s of stations) {
      const price =
        basis === "today"
          ? this.#today(s)
          : (priceInForceBefore(this.catalog.prices.get(s.id), endMs) ?? this.#today(s));
      if (price !== null) prices.push(price);
    }
    const median = medianOf(prices);
    this.#medians.set(key, median);
    return median;
  }
}

/** The savings figures of a set of completed fills, and the largest missed savings (largest first, at most `topN`). */
export function computeSavings(
  fills: Iterable<SavingsFill>,
  catalog: MirrorCatalog,
  radiusMiles: number,
  topN = TOP_MISSED,
): { figures: SavingsFigures; top: MissedSaving[] } {
  const comparer = new Comparer(catalog, radiusMiles);
  let compared = 0;
  let gallons = 0n;
  let saved = 0n;
  let withSaving = 0;
  let aboveMedian = 0n;
  let withAboveMedian = 0;
  const basis: Record<PriceBasis, number> = { history: 0, today: 0 };
  const unknown = { fills: 0, gallons: 0n };
  const other = { fills: 0, gallons: 0n };
  const top = new TopMissed(topN);

  for (const fill of fills) {
    if (!isComparedProduct(fill.product)) {
      other.fills++;
      other.gallons += BigInt(fill.gallonsMilli);
      continue;
    }
    const origin = comparer.station(fill.stationId);
    if (!origin) {
      unknown.fills++;
      unknown.gallons += BigInt(fill.gallonsMilli);
      continue;
    }
    const comparison = comparer.compare(origin, fill.localDate, fill.offsetMin);
    compared++;
    gallons += BigInt(fill.gallonsMilli);
    basis[comparison.basis]++;
    if (comparison.cheapest !== null && fill.priceMilli > comparison.cheapest.priceMilli) {
      // ≤ 10⁴ thousandths of a dollar × ≤ 10⁶ thousandths of a gallon: exact as a Number, summed as a BigInt.
      const micro = (fill.priceMilli - comparison.cheapest.priceMilli) * fill.gallonsMilli;
      saved += BigInt(micro);
      withSaving++;
      top.offer(micro, fill, comparison);
    }
    if (comparison.medianMilli !== null && fill.priceMilli > comparison.medianMilli) {
      aboveMedian += BigInt((fill.priceMilli - comparison.medianMilli) * fill.gallonsMilli);
      withAboveMedian++;
    }
  }

  return {
    figures: {
      fills: compared,
      gallons: fromMinorUnits(gallons, 3),
      couldHaveSaved: dollars(saved),
      fillsWithSaving: withSaving,
      aboveStateMedian: dollars(aboveMedian),
      fillsAboveStateMedian: withAboveMedian,
      basis,
      unknownStation: { fills: unknown.fills, gallons: fromMinorUnits(unknown.gallons, 3) },
      otherProduct: { fills: other.fills, gallons: fromMinorUnits(other.gallons, 3) },
    },
    top: top.list(),
  };
}

/** Figures of nothing (a period the mirror does not cover yet). */
export const NO_SAVINGS: SavingsFigures = computeSavings(
  [],
  { stations: [], prices: new Map(), lastWalkMs: null, historyFromMs: null },
  0,
).figures;
