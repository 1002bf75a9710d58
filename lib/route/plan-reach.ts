import { byRouteOrder, type Candidate } from "./corridor";
import { num } from "./geo";
import type { RouteOptions, TruckProfile } from "./options";
import type { Route } from "./path";
import type { ReachGap } from "./wording";

/**
 * The fill plan's distances, in gallons: candidates in route order (miles along, then loc number); between two
 * stops, the way back to the road from the first, the road between, and the way to the second (half a detour each).
 * Fuel is counted above the reserve ("usable"): the tank holds `usable`, the truck starts with `start`.
 */
export class Legs {
  readonly n: number;
  readonly cands: Candidate[];
  readonly price: Float64Array;
  /** Each stop's detour time at the driver's hourly value, in dollars. */
  readonly time: Float64Array;
  readonly usable: number;
  readonly start: number;
  readonly reserve: number;
  readonly totalMiles: number;
  readonly mpg: number;
  /**
   * Each stop's key: miles along + half its detour. The gallons from stop j to any later stop v are
   * (key[v] + half[j] − along[j]) / mpg, so ordering the later stops by distance from j is ordering them by key,
   * the same order for every j: `byKey` (ascending), with `sortedKeys` for binary search.
   */
  readonly byKey: Int32Array;
  readonly sortedKeys: Float64Array;
  private readonly along: Float64Array;
  private readonly half: Float64Array;

  constructor(route: Route, cands: readonly Candidate[], truck: TruckProfile) {
    this.cands = [...cands].sort(byRouteOrder);
    this.n = this.cands.length;
    this.price = Float64Array.from(this.cands, (c) => c.price);
    this.time = Float64Array.from(this.cands, (c) => c.detourHours * truck.hourlyValue);
    this.along = Float64Array.from(this.cands, (c) => Math.min(c.alongMiles, route.totalMiles));
    this.half = Float64Array.from(this.cands, (c) => c.detourMiles / 2);
    this.totalMiles = route.totalMiles;
    this.mpg = truck.mpg;
    this.usable = truck.tankGallons - truck.reserveGallons;
    this.start = truck.fuelNowGallons - truck.reserveGallons;
    this.reserve = truck.reserveGallons;
    const key = Float64Array.from(this.cands, (_, i) => num(this.along, i) + num(this.half, i));
    this.byKey = Int32Array.from(this.cands, (_, i) => i).sort((a, b) => num(key, a) - num(key, b));
    this.sortedKeys = Float64Array.from(this.byKey, (i) => num(key, i));
  }

  /** Miles back from stop j's station to the road, minus its mile along: gallons to v = (key[v] + this) / mpg. */
  offsetOf(j: number): number {
    return num(this.half, j) - num(this.along, j);
  }

  /** Gallons from stop i to stop j (i before j). */
  between(i: number, j: number): number {
    return (num(this.half, i) + num(this.along, j) - num(this.along, i) + num(this.half, j)) / this.mpg;
  }

  /** Gallons of road alone between i and j: a lower bound of `between`, which grows with the gap. */
  alongGap(i: number, j: number): number {
    return (num(this.along, j) - num(this.along, i)) / this.mpg;
  }

  fromStart(j: number): number {
    return (num(this.along, j) + num(this.half, j)) / this.mpg;
  }

  toEnd(i: number): number {
    return (num(this.half, i) + this.totalMiles - num(this.along, i)) / this.mpg;
  }

  fromStartToEnd(): number {
    return this.totalMiles / this.mpg;
  }

  /** The farthest mile along the route the truck can drive from stop i after filling up there. */
  reachFrom(i: number): number {
    return num(this.along, i) + this.usable * this.mpg - num(this.half, i);
  }

  alongOf(i: number): number {
    return num(this.along, i);
  }
}

const EPS = 1e-9;

interface Reach {
  legs: Legs;
  /** Stations the truck can get to above its reserve, filling up wherever it stops before. */
  reachable: boolean[];
  /** The stretch the truck cannot cross, in miles; null when a plan exists. */
  gap: ReachGap | null;
}

/**
 * Which stations the truck can reach at all (filling up at every stop is the farthest it can get), and, when the end
 * is out of reach, the stretch it cannot cross: from the last station it can reach (or the start) to the next station
 * (or the end). Every station after the last reachable one is out of reach, so that next station is the first the
 * truck fails to get to: the gap is between stations, never between "the farthest mile a full tank reaches" and a
 * station past it (which left out a station short of that mile but out of reach with its detour).
 */
export function planReach(route: Route, cands: readonly Candidate[], truck: TruckProfile, _: RouteOptions): Reach {
  const legs = new Legs(route, cands, truck);
  const reachable = new Array<boolean>(legs.n).fill(false);
  let frontier = legs.start * truck.mpg;
  let last = -1;
  for (let j = 0; j < legs.n; j++) {
    if (legs.start >= legs.fromStart(j) - EPS) reachable[j] = true;
    else
      for (let w = j - 1; w >= 0 && legs.alongGap(w, j) <= legs.usable + EPS; w--)
        if (reachable[w] && legs.between(w, j) <= legs.usable + EPS) {
          reachable[j] = true;
          break;
        }
    if (reachable[j]) {
      frontier = Math.max(frontier, legs.reachFrom(j));
      last = j;
    }
  }
  if (frontier >= route.totalMiles - EPS * truck.mpg) return { legs, reachable, gap: null };
  const next = last + 1 < legs.n ? last + 1 : null;
  const base = { totalMiles: route.totalMiles, mpg: truck.mpg, toMile: next === null ? null : legs.alongOf(next) };
  if (last < 0) {
    const needed = next === null ? legs.fromStartToEnd() : legs.fromStart(next);
    return {
      legs,
      reachable,
      gap: {
        ...base,
        fromMile: null,
        neededMiles: needed * truck.mpg,
        rangeMiles: legs.start * truck.mpg,
        rangeGallons: legs.start,
      },
    };
  }
  // The least fuel over the stretch: from whichever reachable station is nearest the next one with its detour.
  let needed = Infinity;
  for (let w = 0; w <= last; w++)
    if (reachable[w]) needed = Math.min(needed, next === null ? legs.toEnd(w) : legs.between(w, next));
  return {
    legs,
    reachable,
    gap: {
      ...base,
      fromMile: legs.alongOf(last),
      neededMiles: needed * truck.mpg,
      rangeMiles: legs.usable * truck.mpg,
      rangeGallons: legs.usable,
    },
  };
}
