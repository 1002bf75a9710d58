import type { Candidate } from "./corridor";
import { at } from "./geo";
import { checkOptions, checkTruck, type RouteOptions, type TruckProfile } from "./options";
import type { Route } from "./path";
import { type Legs, planReach } from "./plan-reach";

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
}

/** Float slack on gallons: a plan that arrives with 1e-12 gal under the reserve arrives with the reserve. */
const EPS = 1e-9;
const END = -1;

/** One station's states: the fuel (above the reserve) it may be reached with, each with its best cost onwards. */
interface States {
  /** fuel[0]: empty (reserve); fuel[1]: straight from the start; fuel[2 + k]: filled up at station `lo + k`. */
  fuel: Float64Array;
  cost: Float64Array;
  /** The next stop (END: the end of the route) and whether the stop here fills up (1) or buys just enough (0). */
  next: Int32Array;
  fill: Uint8Array;
  lo: number;
}

/** Best cost to the end from each of station j's states (all later stations' states already known). */
function solveStation(j: number, legs: Legs, states: (States | null)[], st: States): void {
  const { n, usable: U, price, time } = legs;
  const pj = at(price, j);
  // "Fill up here, next stop dearer": a cost B − g·pj, the best B over the dearer stops within a tank.
  let fillBest = Infinity;
  let fillNext = END;
  // "Buy just enough to reach a cheaper stop (or the end) with the reserve": a cost A − g·pj, for g ≤ d only.
  const enough: { d: number; a: number; v: number }[] = [];
  const dEnd = legs.toEnd(j);
  if (dEnd <= U + EPS) enough.push({ d: dEnd, a: dEnd * pj, v: END });
  for (let v = j + 1; v < n; v++) {
    const d = legs.between(j, v);
    if (d > U + EPS) continue;
    const sv = at(states, v);
    if (!sv) continue;
    if (at(price, v) <= pj) {
      const a = at(sv.cost, 0) + d * pj;
      if (Number.isFinite(a)) enough.push({ d, a, v });
    } else if (j >= sv.lo) {
      const b = at(sv.cost, 2 + j - sv.lo) + U * pj;
      if (b < fillBest) {
        fillBest = b;
        fillNext = v;
      }
    }
  }
  // Largest d first, with the running minimum of A: the best choice among the stops with d ≥ g is a prefix.
  enough.sort((x, y) => y.d - x.d);
  const prefixBest: number[] = [];
  enough.forEach((e, i) => {
    const before = i > 0 ? at(prefixBest, i - 1) : -1;
    prefixBest.push(before >= 0 && at(enough, before).a <= e.a ? before : i);
  });
  for (let k = 0; k < st.fuel.length; k++) {
    const g = at(st.fuel, k);
    if (!(g >= -EPS)) continue;
    let cost = Infinity;
    let next = END;
    let fill = 0;
    if (fillBest < Infinity) {
      cost = fillBest - g * pj;
      next = fillNext;
      fill = 1;
    }
    // The last entry with d ≥ g (d descending): binary search.
    let lo = 0;
    let hi = enough.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(enough, mid).d >= g - EPS) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) {
      const e = at(enough, at(prefixBest, lo - 1));
      const c = e.a - Math.min(g, e.d) * pj;
      if (c < cost) [cost, next, fill] = [c, e.v, 0];
    }
    // Arriving with more than the end needs: buy nothing (never better than skipping this stop, but a valid plan).
    if (g >= dEnd - EPS && 0 < cost) [cost, next, fill] = [0, END, 0];
    st.cost[k] = cost + at(time, j);
    st.next[k] = next;
    st.fill[k] = fill;
  }
}

/** Station j's states: empty, from the start, and filled up at each earlier station within a tank. */
function statesOf(j: number, legs: Legs): States {
  const { usable: U, start: F } = legs;
  let lo = j;
  while (lo > 0 && legs.alongGap(lo - 1, j) <= U + EPS) lo--;
  const size = 2 + (j - lo);
  const fuel = new Float64Array(size).fill(NaN);
  fuel[0] = 0;
  const fromStart = F - legs.fromStart(j);
  if (fromStart >= -EPS) fuel[1] = Math.max(0, fromStart);
  for (let w = lo; w < j; w++) {
    const left = U - legs.between(w, j);
    if (left >= -EPS) fuel[2 + w - lo] = Math.max(0, left);
  }
  return {
    fuel,
    cost: new Float64Array(size).fill(Infinity),
    next: new Int32Array(size).fill(END),
    fill: new Uint8Array(size),
    lo,
  };
}

/** The state index at `v` when arriving from `j` having filled up (1) or bought just enough (0). */
function stateAt(v: number, j: number, fill: number, states: (States | null)[]): number {
  const sv = at(states, v);
  return fill === 1 && sv ? 2 + j - sv.lo : 0;
}

function buildPlan(legs: Legs, states: (States | null)[], first: { v: number; k: number }): FillPlan {
  const { cands, reserve, usable: U } = legs;
  const stops: FillStop[] = [];
  let v = first.v;
  let k = first.k;
  let fuelCost = 0;
  let detourCost = 0;
  let endFuel = legs.start - legs.fromStartToEnd();
  while (v !== END) {
    const st = at(states, v);
    if (!st) break;
    const g = at(st.fuel, k);
    const next = at(st.next, k);
    const fill = at(st.fill, k);
    const need = next === END ? legs.toEnd(v) : legs.between(v, next);
    const buy = fill === 1 ? U - g : Math.max(0, need - g);
    const cost = buy * at(legs.price, v);
    fuelCost += cost;
    detourCost += at(legs.time, v);
    stops.push({
      candidate: at(cands, v),
      arriveGallons: g + reserve,
      buyGallons: buy,
      cost,
      detourCost: at(legs.time, v),
    });
    endFuel = g + buy - need;
    k = next === END ? 0 : stateAt(next, v, fill, states);
    v = next;
  }
  const endGallons = Math.max(0, endFuel) + reserve;
  return { feasible: true, stops, fuelCost, detourCost, totalCost: fuelCost + detourCost, endGallons, reason: null };
}

function infeasible(reason: string, truck: TruckProfile): FillPlan {
  return {
    feasible: false,
    stops: [],
    fuelCost: 0,
    detourCost: 0,
    totalCost: 0,
    endGallons: truck.fuelNowGallons,
    reason,
  };
}

/**
 * The cheapest way along the route (fuel bought + detour time) that never lets the tank fall under the reserve and
 * ends with the reserve at least: exact, by the gas-station dynamic programme of Khuller, Malekian and Mestre ("To
 * fill or not to fill", 2007). In an optimal plan, at each stop the truck either fills up (when the next stop is
 * dearer) or buys just enough to reach the next stop with the reserve (when it is no dearer), so the fuel it can
 * arrive with at a stop is one of: the reserve, what is left from the start, or what is left after filling up at an
 * earlier stop. Distances between stops include both detours (half of each: there, and back to the road), so detour
 * fuel is bought like any other. O(n² log n) for n candidates.
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
    return infeasible(
      `the truck starts under its reserve (${truck.fuelNowGallons.toFixed(1)} gal, reserve ${truck.reserveGallons.toFixed(1)} gal)`,
      truck,
    );
  const reach = planReach(route, cands, truck, options);
  const legs = reach.legs;
  if (reach.reason !== null) return infeasible(reach.reason, truck);
  const states: (States | null)[] = new Array<States | null>(legs.n).fill(null);
  for (let j = legs.n - 1; j >= 0; j--) {
    if (!at(reach.reachable, j)) continue;
    const st = statesOf(j, legs);
    states[j] = st;
    solveStation(j, legs, states, st);
  }
  let best = legs.start >= legs.fromStartToEnd() - EPS ? 0 : Infinity;
  let first = { v: END, k: 0 };
  for (let v = 0; v < legs.n; v++) {
    const sv = at(states, v);
    if (!sv || Number.isNaN(at(sv.fuel, 1))) continue;
    if (at(sv.cost, 1) < best) {
      best = at(sv.cost, 1);
      first = { v, k: 1 };
    }
  }
  if (!Number.isFinite(best)) return infeasible("no plan keeps the truck above its reserve", truck);
  return buildPlan(legs, states, first);
}
