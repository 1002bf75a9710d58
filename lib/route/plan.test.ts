import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { Candidate } from "./corridor";
import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "./options";
import type { Route } from "./path";
import { type FillPlan, planFills } from "./plan";
import { candidate } from "./test-stations";

const OPTIONS = DEFAULT_ROUTE_OPTIONS;
/** The plan reads only the route's length: a route of `miles` without geometry. */
const routeOf = (miles: number): Route => ({ points: [], legs: [], totalMiles: miles });
/** 50 gal tank, 10 reserve (40 usable = 200 mi at 5 mpg), 30 now (20 usable = 100 mi), driver time free. */
const TRUCK: TruckProfile = { tankGallons: 50, fuelNowGallons: 30, mpg: 5, reserveGallons: 10, hourlyValue: 0 };

/** Drives the plan: the fuel never under the reserve, never over the tank; the costs add up. */
function replay(route: Route, plan: FillPlan, truck: TruckProfile): void {
  const eps = 1e-6;
  let fuel = truck.fuelNowGallons;
  let at = 0;
  let back = 0;
  let total = 0;
  for (const s of plan.stops) {
    const c = s.candidate;
    fuel -= (back + c.alongMiles - at + c.detourMiles / 2) / truck.mpg;
    expect(fuel).toBeGreaterThanOrEqual(truck.reserveGallons - eps);
    expect(s.arriveGallons).toBeCloseTo(fuel, 6);
    expect(s.buyGallons).toBeGreaterThanOrEqual(-eps);
    fuel += s.buyGallons;
    expect(fuel).toBeLessThanOrEqual(truck.tankGallons + eps);
    expect(s.cost).toBeCloseTo(s.buyGallons * c.price, 9);
    expect(s.detourCost).toBeCloseTo(c.detourHours * truck.hourlyValue, 9);
    total += s.cost + s.detourCost;
    at = c.alongMiles;
    back = c.detourMiles / 2;
  }
  fuel -= (back + route.totalMiles - at) / truck.mpg;
  expect(fuel).toBeGreaterThanOrEqual(truck.reserveGallons - eps);
  expect(plan.endGallons).toBeCloseTo(fuel, 6);
  expect(plan.totalCost).toBeCloseTo(total, 6);
  expect(plan.totalCost).toBeCloseTo(plan.fuelCost + plan.detourCost, 9);
}

/**
 * Every plan a driver could follow, with purchases in whole gallons (or filling the tank): every subset of stops in
 * route order, every amount. The cheapest total; null when none keeps the reserve. Exponential: ≤ 6 stations.
 */
function bruteForce(route: Route, cands: readonly Candidate[], truck: TruckProfile): number | null {
  const sorted = [...cands].sort((a, b) => a.alongMiles - b.alongMiles);
  const eps = 1e-9;
  let best: number | null = null;
  const visit = (from: number, at: number, back: number, fuel: number, cost: number): void => {
    if (fuel - (back + route.totalMiles - at) / truck.mpg >= truck.reserveGallons - eps)
      best = best === null ? cost : Math.min(best, cost);
    for (let v = from; v < sorted.length; v++) {
      const c = sorted[v];
      if (!c) continue;
      const arrive = fuel - (back + c.alongMiles - at + c.detourMiles / 2) / truck.mpg;
      if (arrive < truck.reserveGallons - eps) continue;
      const room = truck.tankGallons - arrive;
      const amounts = [room];
      for (let g = 1; g < room; g++) amounts.push(g);
      const time = c.detourHours * truck.hourlyValue;
      for (const g of amounts) visit(v + 1, c.alongMiles, c.detourMiles / 2, arrive + g, cost + g * c.price + time);
    }
  };
  visit(0, 0, 0, truck.fuelNowGallons, 0);
  return best;
}

/**
 * The review's exact brute force: at each stop (in route order) buy nothing, fill up, or exactly enough to reach a
 * later stop or the end at the reserve. An optimal plan buys one of these amounts at each stop, so the least cost over
 * them is the optimum itself (not a whole-gallon bound). Null when no plan exists.
 */
function exactOptimum(route: Route, cands: readonly Candidate[], truck: TruckProfile): number | null {
  const sorted = [...cands].sort((a, b) => a.alongMiles - b.alongMiles);
  const eps = 1e-9;
  let best: number | null = null;
  // Gallons from `at` (`back` miles off the path, on a detour) to the station c, or to the end when c is null.
  const burn = (at: number, back: number, c: Candidate | null): number =>
    c === null
      ? (back + route.totalMiles - at) / truck.mpg
      : (back + c.alongMiles - at + c.detourMiles / 2) / truck.mpg;
  const visit = (from: number, at: number, back: number, fuel: number, cost: number): void => {
    if (fuel - burn(at, back, null) >= truck.reserveGallons - eps) best = best === null ? cost : Math.min(best, cost);
    sorted.slice(from).forEach((c, offset) => {
      const v = from + offset;
      const arrive = fuel - burn(at, back, c);
      if (arrive < truck.reserveGallons - eps) return;
      const room = truck.tankGallons - arrive;
      const amounts = new Set<number>([room, 0]);
      const half = c.detourMiles / 2;
      for (const next of [...sorted.slice(v + 1), null]) {
        const need = truck.reserveGallons + burn(c.alongMiles, half, next) - arrive;
        if (need > 0 && need <= room + eps) amounts.add(Math.min(need, room));
      }
      const time = c.detourHours * truck.hourlyValue;
      for (const g of amounts) visit(v + 1, c.alongMiles, half, arrive + g, cost + g * c.price + time);
    });
  };
  visit(0, 0, 0, truck.fuelNowGallons, 0);
  return best;
}

describe("planFills: hand cases", () => {
  it("makes no stop when the tank already reaches the end above the reserve", () => {
    const plan = planFills(routeOf(100), [candidate("A", 50, 0, 3)], TRUCK, OPTIONS);
    expect(plan).toMatchObject({ feasible: true, stops: [], totalCost: 0, reason: null });
    expect(plan.endGallons).toBeCloseTo(30 - 100 / 5, 9);
  });

  it("stops twice: just enough to the cheaper stop, then just enough to the end", () => {
    // Start: 20 usable gal (100 mi). A at mile 90 ($4): arrives with 2 usable; B at 280 ($3) is 190 mi = 38 gal away
    // and cheaper: buy 36 at A ($144). At B, empty: the end is 170 mi = 34 gal; C ($5) dearer: buy 34 at B ($102).
    const cands = [candidate("A", 90, 0, 4), candidate("B", 280, 0, 3), candidate("C", 400, 0, 5)];
    const plan = planFills(routeOf(450), cands, TRUCK, OPTIONS);
    expect(plan.feasible).toBe(true);
    expect(plan.stops.map((s) => s.candidate.station.locNum)).toEqual(["A", "B"]);
    expect(plan.stops.map((s) => s.buyGallons)).toEqual([expect.closeTo(36, 9), expect.closeTo(34, 9)]);
    expect(plan.stops.map((s) => s.arriveGallons)).toEqual([expect.closeTo(12, 9), expect.closeTo(10, 9)]);
    expect(plan.totalCost).toBeCloseTo(246, 9);
    expect(plan.endGallons).toBeCloseTo(10, 9);
    replay(routeOf(450), plan, TRUCK);
  });

  it("fills up where the next stop is dearer", () => {
    // A ($3) at mile 90, B ($4) at 250: fill up at A (48 gal → 40 usable), reach B with 8 usable; the end at 400 is
    // 150 mi = 30 gal from B: buy 22 at B.
    const cands = [candidate("A", 90, 0, 3), candidate("B", 250, 0, 4)];
    const plan = planFills(routeOf(400), cands, TRUCK, OPTIONS);
    expect(plan.stops.map((s) => [s.candidate.station.locNum, s.buyGallons])).toEqual([
      ["A", expect.closeTo(38, 9)],
      ["B", expect.closeTo(22, 9)],
    ]);
    expect(plan.totalCost).toBeCloseTo(38 * 3 + 22 * 4, 9);
  });

  it("pays the detour: its fuel is bought, its time is priced, and a cheap stop far off loses to a near one", () => {
    const truck = { ...TRUCK, hourlyValue: 45 };
    // Far: 10 mi off (25 mi of detour: 5 gal, 0.556 h = $25) at $2.50; near: on the route at $3.20.
    const cands = [candidate("far", 60, 10, 2.5), candidate("near", 60, 0, 3.2)];
    const plan = planFills(routeOf(200), cands, truck, OPTIONS);
    expect(plan.stops.map((s) => s.candidate.station.locNum)).toEqual(["near"]);
    // From mile 60 on the road: 140 mi = 28 gal needed, arriving with 8 usable: buy 20 ($64; far: 25 × $2.50 + $25).
    expect(plan.stops[0]?.buyGallons).toBeCloseTo(20, 9);
    expect(plan.totalCost).toBeCloseTo(64, 9);
    replay(routeOf(200), plan, truck);
    const free = planFills(routeOf(200), cands, TRUCK, OPTIONS);
    // With time free, the far one: arrive with 20 − (60 + 12.5)/5 = 5.5 usable; need (12.5 + 140)/5 = 30.5: buy 25
    // for $62.50, less than the near one's $64.
    expect(free.stops.map((s) => [s.candidate.station.locNum, s.buyGallons])).toEqual([["far", expect.closeTo(25, 9)]]);
    expect(free.detourCost).toBe(0);
  });

  it("says where the gap is when no plan exists, in miles, with the range", () => {
    // From A (mile 90) a full tank (40 gal above the reserve, 200 mi) reaches mile 290; the next station is at 480.
    const cands = [candidate("A", 90, 0, 4), candidate("B", 480, 0, 3)];
    const plan = planFills(routeOf(600), cands, TRUCK, OPTIONS);
    expect(plan).toMatchObject({
      feasible: false,
      stops: [],
      reason:
        "a 390.0-mile gap between the stations at mile 90.0 and mile 480.0; your range is 200.0 mi at 5.0 mpg " +
        "(40.0 gal above the reserve)",
    });
    expect(planFills(routeOf(600), [], TRUCK, OPTIONS).reason).toBe(
      "a 600.0-mile gap between the start and the end of the route with no station in the corridor; the fuel now " +
        "takes the truck 100.0 mi at 5.0 mpg (20.0 gal above the reserve)",
    );
    expect(planFills(routeOf(600), [candidate("A", 90, 0, 4)], TRUCK, OPTIONS).reason).toBe(
      "a 510.0-mile gap between the last station within reach (mile 90.0) and the end of the route (mile 600.0); " +
        "your range is 200.0 mi at 5.0 mpg (40.0 gal above the reserve)",
    );
    expect(planFills(routeOf(600), [candidate("B", 140, 2, 4)], TRUCK, OPTIONS).reason).toBe(
      "a 140.0-mile gap between the start and the first station in the corridor (mile 140.0) (142.5 mi with the " +
        "detour); the fuel now takes the truck 100.0 mi at 5.0 mpg (20.0 gal above the reserve)",
    );
    expect(planFills(routeOf(600), [], { ...TRUCK, fuelNowGallons: 5 }, OPTIONS).reason).toBe(
      "the truck starts under its reserve (5.0 gal, reserve 10.0 gal)",
    );
  });

  it("names the stations around the gap, not the farthest mile a tank reaches (Seattle → Miami)", () => {
    // The finding: "no station within reach between mile 949 and mile 1,014" for ~845 mi of range. A full tank at A
    // (mile 90) reaches mile 290, but B (mile 288) is 4 mi off the path: 198 mi along + 5 mi back = 203 mi, out of
    // reach. The gap is A → B, and the message says why in miles.
    const cands = [candidate("A", 90, 0, 4), candidate("B", 288, 4, 3), candidate("C", 300, 0, 3.5)];
    const plan = planFills(routeOf(400), cands, TRUCK, OPTIONS);
    expect(plan.feasible).toBe(false);
    expect(plan.reason).toBe(
      "a 198.0-mile gap between the stations at mile 90.0 and mile 288.0 (203.0 mi with the detours to them); " +
        "your range is 200.0 mi at 5.0 mpg (40.0 gal above the reserve)",
    );
    expect(plan.gap).toMatchObject({ fromMile: 90, toMile: 288, rangeMiles: 200 });
    expect(plan.gap?.neededMiles).toBeCloseTo(203, 9);
  });
});

describe("planFills: against brute force", () => {
  const cases = fc
    .record({
      tank: fc.integer({ min: 4, max: 10 }),
      reserve: fc.integer({ min: 0, max: 3 }),
      nowShare: fc.integer({ min: 0, max: 100 }),
      mpg: fc.integer({ min: 20, max: 80 }),
      hourlyValue: fc.integer({ min: 0, max: 60 }),
      tanks: fc.integer({ min: 0, max: 220 }),
      stations: fc.array(
        fc.record({
          // Some stations level with each other, at the start or at the end.
          share: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(0, 500, 1000)),
          off: fc.integer({ min: 0, max: 50 }),
          // Some prices equal: a stop no dearer than the next buys just enough, a tie included.
          price: fc.oneof(fc.integer({ min: 3000, max: 5000 }), fc.constantFrom(3500, 4000)),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    })
    // Integers scaled down: fast-check's doubles crowd at the ends of their range, these spread evenly (a route of 0–2.2
    // tanks, stations anywhere on it, 0–5 mi off).
    .map(({ tank, reserve, nowShare, mpg: mpgTenths, hourlyValue, tanks, stations }) => {
      const mpg = mpgTenths / 10;
      const truck: TruckProfile = {
        tankGallons: tank,
        reserveGallons: reserve,
        fuelNowGallons: reserve + (nowShare / 100) * (tank - reserve),
        mpg,
        hourlyValue,
      };
      const route = routeOf((tanks / 100) * (tank - reserve) * mpg);
      const cands = stations.map((s, i) =>
        candidate(`S${String(i)}`, (s.share / 1000) * route.totalMiles, s.off / 10, s.price / 1000),
      );
      return { truck, route, cands };
    });

  it("is feasible exactly when some plan is, never costs more than the best whole-gallon plan, and can be driven", () => {
    fc.assert(
      fc.property(cases, ({ truck, route, cands }) => {
        const plan = planFills(route, cands, truck, OPTIONS);
        const brute = bruteForce(route, cands, truck);
        expect(plan.feasible).toBe(brute !== null);
        if (brute === null) {
          // The gap named is one the truck truly cannot cross: more miles than its range there.
          if (truck.fuelNowGallons < truck.reserveGallons) expect(plan.gap).toBeNull();
          else {
            expect(plan.reason).toMatch(/^an? [\d,.]+-mile gap between /);
            expect(plan.gap?.neededMiles).toBeGreaterThan(plan.gap?.rangeMiles ?? Infinity);
          }
          return;
        }
        expect(plan.totalCost).toBeLessThanOrEqual(brute + 1e-6);
        replay(route, plan, truck);
      }),
      { numRuns: 2000 },
    );
  });

  it("costs exactly the optimum over the breakpoint amounts (the review's exact brute force)", () => {
    fc.assert(
      fc.property(cases, ({ truck, route, cands }) => {
        const plan = planFills(route, cands, truck, OPTIONS);
        const exact = exactOptimum(route, cands, truck);
        expect(plan.feasible).toBe(exact !== null);
        if (exact !== null) expect(plan.totalCost).toBeCloseTo(exact, 6);
      }),
      { numRuns: 3000 },
    );
  });
});
