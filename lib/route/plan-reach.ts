import { byRouteOrder, type Candidate } from "./corridor";
import { num } from "./geo";
import type { RouteOptions, TruckProfile } from "./options";
import type { Route } from "./path";

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
  /** Why no plan exists, as a sentence; null when one does. */
  reason: string | null;
}

const mile = (m: number): string => `mile ${Math.floor(m).toLocaleString("en-US")}`;

/**
 * Which stations the truck can reach at all (filling up at every stop is the farthest it can get), and, when the end
 * is out of reach, where the gap is: "no station within reach between mile 212 and mile 480".
 */
export function planReach(route: Route, cands: readonly Candidate[], truck: TruckProfile, _: RouteOptions): Reach {
  const legs = new Legs(route, cands, truck);
  const reachable = new Array<boolean>(legs.n).fill(false);
  let frontier = legs.start * truck.mpg;
  for (let j = 0; j < legs.n; j++) {
    if (legs.start >= legs.fromStart(j) - EPS) reachable[j] = true;
    else
      for (let w = j - 1; w >= 0 && legs.alongGap(w, j) <= legs.usable + EPS; w--)
        if (reachable[w] && legs.between(w, j) <= legs.usable + EPS) {
          reachable[j] = true;
          break;
        }
    if (reachable[j]) frontier = Math.max(frontier, legs.reachFrom(j));
  }
  if (frontier >= route.totalMiles - EPS * truck.mpg) return { legs, reachable, reason: null };
  let next: number | null = null;
  for (let j = 0; j < legs.n; j++)
    if (!reachable[j] && legs.alongOf(j) >= frontier) {
      next = legs.alongOf(j);
      break;
    }
  const to = next === null ? `the end of the route (${mile(route.totalMiles)})` : mile(next);
  return { legs, reachable, reason: `no station within reach between ${mile(frontier)} and ${to}` };
}
