import type { Candidate } from "./corridor";
import { at, num } from "./geo";
import { checkOptions, checkTruck, type RouteOptions, type TruckProfile } from "./options";
import type { Route } from "./path";
import { type Legs, planReach } from "./plan-reach";
import { gapText, type ReachGap, underReserveText } from "./wording";

export interface FillStop {
  candidate: Candidate;
  /** Gallons in the tank on arriving at the station (the detour's way there burned). */
  arriveGallons: number;
  buyGallons: number;
  /** buyGallons × price. */
  cost: number;
  /**
   * The detour's time at the driver's hourly value. Its fuel is not here: the plan burns it from the tank, so it is
   * in the gallons bought (counting it here too would count it twice).
   */
  detourCost: number;
}

export interface FillPlan {
  feasible: boolean;
  stops: FillStop[];
  fuelCost: number;
  detourCost: number;
  totalCost: number;
  /** Gallons in the tank at the end of the route (the reserve at least). */
  endGallons: number;
  /** Why there is no plan, as a sentence; null when feasible. */
  reason: string | null;
  /** The stretch the truck cannot cross when that is why (not when it starts under its reserve); null otherwise. */
  gap: ReachGap | null;
}

/** Float slack on gallons: a plan that arrives with 1e-12 gal under the reserve arrives with the reserve. */
const EPS = 1e-9;
const END = -1;

/**
 * What the DP knows per station, indexed like `legs.cands` (fuel counted above the reserve):
 * `empty[j]`: the best cost onwards arriving at j with the reserve only; `fillRaw[j]`: the best cost onwards from the
 * next stop after filling up at j, that stop being dearer (`fillNext[j]`); `fromStart[j]`: arriving at j first.
 */
interface Table {
  empty: Float64Array;
  fillRaw: Float64Array;
  fillNext: Int32Array;
  fromStart: Float64Array;
}

/** Station j's "buy just enough" options: the no-dearer next stops (and the end), largest distance first. */
interface Enough {
  /** Entries 0..size-1 (buffers shared by every station, valid until the next `enoughOf`). */
  size: number;
  d: Float64Array;
  /** The best (cost onwards + d × price at j) among entries 0..i, and its next stop. */
  best: Float64Array;
  bestNext: Int32Array;
  dEnd: number;
}

/** Buffers for `enoughOf`, one set per plan. */
function enoughBuffers(n: number): Enough {
  return {
    size: 0,
    d: new Float64Array(n + 1),
    best: new Float64Array(n + 1),
    bestNext: new Int32Array(n + 1),
    dEnd: Infinity,
  };
}

function pushEnough(e: Enough, d: number, a: number, v: number): void {
  const i = e.size++;
  const before = i > 0 ? num(e.best, i - 1) : Infinity;
  e.d[i] = d;
  e.best[i] = before <= a ? before : a;
  e.bestNext[i] = before <= a ? at(e.bestNext, i - 1) : v;
}

/**
 * Fills `e` for station j: the later stops no dearer than j within a tank, and the end, by distance from j descending
 * (by key descending, which is the same order), each with the best choice so far.
 */
function enoughOf(j: number, legs: Legs, table: Table, e: Enough): Enough {
  const { usable: U, price, mpg, sortedKeys, byKey } = legs;
  const pj = num(price, j);
  const offset = legs.offsetOf(j);
  e.size = 0;
  e.dEnd = legs.toEnd(j);
  let endDone = e.dEnd > U + EPS;
  // The last key within a tank of j (binary search), then down to j's own mile along.
  const maxKey = U * mpg - offset + EPS * mpg;
  let lo = 0;
  let hi = sortedKeys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (num(sortedKeys, mid) <= maxKey) lo = mid + 1;
    else hi = mid;
  }
  const floor = legs.alongOf(j);
  for (let pos = lo - 1; pos >= 0; pos--) {
    const key = num(sortedKeys, pos);
    if (key < floor) break;
    if (!endDone && key < legs.totalMiles) {
      pushEnough(e, e.dEnd, e.dEnd * pj, END);
      endDone = true;
    }
    const v = at(byKey, pos);
    if (v <= j || num(price, v) > pj) continue;
    const d = (key + offset) / mpg;
    const a = num(table.empty, v) + d * pj;
    if (a < Infinity) pushEnough(e, d, a, v);
  }
  if (!endDone) pushEnough(e, e.dEnd, e.dEnd * pj, END);
  return e;
}

interface Choice {
  cost: number;
  next: number;
  fill: boolean;
}

/** The best cost onwards from arriving at j with g usable gallons (its detour time included), and the choice made. */
function decide(j: number, g: number, legs: Legs, table: Table, enough: Enough): Choice {
  const pj = num(legs.price, j);
  let choice: Choice = { cost: Infinity, next: END, fill: false };
  const fillRaw = num(table.fillRaw, j);
  if (fillRaw < Infinity) choice = { cost: fillRaw + (legs.usable - g) * pj, next: at(table.fillNext, j), fill: true };
  // The entries with d ≥ g are a prefix (d descending): binary search for its length.
  let lo = 0;
  let hi = enough.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (num(enough.d, mid) >= g - EPS) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) {
    const c = num(enough.best, lo - 1) - g * pj;
    if (c < choice.cost) choice = { cost: c, next: at(enough.bestNext, lo - 1), fill: false };
  }
  // Arriving with more than the end needs: buy nothing (never better than skipping the stop, but a valid plan).
  if (g >= enough.dEnd - EPS && choice.cost > 0) choice = { cost: 0, next: END, fill: false };
  choice.cost += num(legs.time, j);
  return choice;
}

/** Fills the table from the last station back: each station's costs, then what filling up before it is worth. */
function solve(legs: Legs, reachable: readonly boolean[]): Table {
  const n = legs.n;
  const table: Table = {
    empty: new Float64Array(n).fill(Infinity),
    fillRaw: new Float64Array(n).fill(Infinity),
    fillNext: new Int32Array(n).fill(END),
    fromStart: new Float64Array(n).fill(Infinity),
  };
  const { usable: U, start: F, price } = legs;
  const buffers = enoughBuffers(n);
  for (let j = n - 1; j >= 0; j--) {
    if (reachable[j] !== true) continue;
    const enough = enoughOf(j, legs, table, buffers);
    table.empty[j] = decide(j, 0, legs, table, enough).cost;
    const left = F - legs.fromStart(j);
    if (left >= -EPS) table.fromStart[j] = decide(j, Math.max(0, left), legs, table, enough).cost;
    // A cheaper earlier station w fills up and comes straight here: the value of that arrival, for w's choice.
    for (let w = j - 1; w >= 0 && legs.alongGap(w, j) <= U + EPS; w--) {
      if (reachable[w] !== true || num(price, w) >= num(price, j)) continue;
      const d = legs.between(w, j);
      if (d > U + EPS) continue;
      const c = decide(j, Math.max(0, U - d), legs, table, enough).cost;
      if (c < num(table.fillRaw, w)) {
        table.fillRaw[w] = c;
        table.fillNext[w] = j;
      }
    }
  }
  return table;
}

/** Follows the choices from the start: the stops, what is bought at each, and the totals. */
function buildPlan(legs: Legs, table: Table, first: number): FillPlan {
  const { cands, reserve, usable: U } = legs;
  const stops: FillStop[] = [];
  let fuelCost = 0;
  let detourCost = 0;
  let endFuel = legs.start - legs.fromStartToEnd();
  let v = first;
  let g = v === END ? 0 : Math.max(0, legs.start - legs.fromStart(v));
  const buffers = enoughBuffers(legs.n);
  while (v !== END) {
    const { next, fill } = decide(v, g, legs, table, enoughOf(v, legs, table, buffers));
    const need = next === END ? legs.toEnd(v) : legs.between(v, next);
    const buy = fill ? U - g : Math.max(0, need - g);
    const cost = buy * num(legs.price, v);
    const time = num(legs.time, v);
    fuelCost += cost;
    detourCost += time;
    stops.push({ candidate: at(cands, v), arriveGallons: g + reserve, buyGallons: buy, cost, detourCost: time });
    endFuel = g + buy - need;
    g = fill ? Math.max(0, endFuel) : 0;
    v = next;
  }
  const endGallons = Math.max(0, endFuel) + reserve;
  return {
    feasible: true,
    stops,
    fuelCost,
    detourCost,
    totalCost: fuelCost + detourCost,
    endGallons,
    reason: null,
    gap: null,
  };
}

function infeasible(reason: string, truck: TruckProfile, gap: ReachGap | null = null): FillPlan {
  return {
    feasible: false,
    stops: [],
    fuelCost: 0,
    detourCost: 0,
    totalCost: 0,
    endGallons: truck.fuelNowGallons,
    reason,
    gap,
  };
}

/**
 * The cheapest way along the route (fuel bought + detour time) that never lets the tank fall under the reserve and
 * ends with the reserve at least: exact, by the gas-station dynamic programme of Khuller, Malekian and Mestre ("To
 * fill or not to fill", 2007). In an optimal plan, at each stop the truck either fills up (when the next stop is
 * dearer) or buys just enough to reach the next stop with the reserve (when it is no dearer), so the fuel it can
 * arrive with at a stop is one of: the reserve, what is left from the start, or what is left after filling up at an
 * earlier stop (only a cheaper one: a stop fills up only when the next is dearer). Distances between stops include
 * both detours (half of each: there, and back to the road), so detour fuel is bought like any other. O(n·k log n)
 * for n candidates with k of them within a tank of each other.
 */
export function planFills(
  route: Route,
  cands: readonly Candidate[],
  truck: TruckProfile,
  options: RouteOptions,
): FillPlan {
  checkOptions(options);
  checkTruck(truck);
  if (truck.fuelNowGallons < truck.reserveGallons - EPS)
    return infeasible(underReserveText(truck.fuelNowGallons, truck.reserveGallons), truck);
  const reach = planReach(route, cands, truck, options);
  const legs = reach.legs;
  if (reach.gap !== null) return infeasible(gapText(reach.gap), truck, reach.gap);
  const table = solve(legs, reach.reachable);
  let best = legs.start >= legs.fromStartToEnd() - EPS ? 0 : Infinity;
  let first = END;
  for (let v = 0; v < legs.n; v++)
    if (num(table.fromStart, v) < best) {
      best = num(table.fromStart, v);
      first = v;
    }
  // planReach found the end within reach, so some plan exists: Infinity here would be a bug of ours.
  if (!Number.isFinite(best)) return infeasible("no plan keeps the truck above its reserve", truck);
  return buildPlan(legs, table, first);
}
