import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "./options";
import type { Route } from "./path";
import { type FillPlan, planFills } from "./plan";
import { shownPlan } from "./plan-figures";
import { candidate } from "./test-stations";

const routeOf = (miles: number): Route => ({ points: [], legs: [], totalMiles: miles });
const cents = (dollars: number) => Math.round(dollars * 100);

describe("the fill plan's figures as shown", () => {
  it("adds up to the cent as printed where the exact total rounds otherwise (the finding's $208.21)", () => {
    // The finding: rows $202.55 and $5.67, total "$208.21" (the exact 202.546 + 5.666 = 208.212 rounded once).
    const stop = { candidate: candidate("A", 2, 3, 3.229), arriveGallons: 59.2, buyGallons: 62.73 };
    const plan: FillPlan = {
      feasible: true,
      stops: [{ ...stop, cost: 202.546, detourCost: 5.666 }],
      fuelCost: 202.546,
      detourCost: 5.666,
      totalCost: 208.212,
      endGallons: 20,
      reason: null,
      gap: null,
    };
    const shown = shownPlan(plan);
    expect(shown.stops).toEqual([{ buyTenths: 627, costCents: 20_255, detourCents: 567 }]);
    expect(shown.totalCents).toBe(20_255 + 567);
    expect(cents(202.546 + 5.666)).not.toBe(shown.totalCents);
  });

  it("sums the rounded rows for every plan (gallons in tenths, dollars in cents)", () => {
    const truck: TruckProfile = { tankGallons: 150, fuelNowGallons: 60, mpg: 6.5, reserveGallons: 20, hourlyValue: 35 };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 2000 }),
            off: fc.integer({ min: 0, max: 90 }),
            price: fc.integer({ min: 2800, max: 4900 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (stations) => {
          const cands = stations.map((s, i) => candidate(`S${String(i)}`, s.at, s.off / 10, s.price / 1000));
          const plan = planFills(routeOf(2000), cands, truck, DEFAULT_ROUTE_OPTIONS);
          const shown = shownPlan(plan);
          // Each row is its exact figure rounded once (half a cent at most, a tie either way).
          shown.stops.forEach((s, i) => {
            const exact = plan.stops[i];
            expect(Math.abs(s.costCents - (exact?.cost ?? NaN) * 100)).toBeLessThanOrEqual(0.5 + 1e-6);
            expect(Math.abs(s.detourCents - (exact?.detourCost ?? NaN) * 100)).toBeLessThanOrEqual(0.5 + 1e-6);
          });
          expect(shown.fuelCents).toBe(shown.stops.reduce((t, s) => t + s.costCents, 0));
          expect(shown.detourCents).toBe(shown.stops.reduce((t, s) => t + s.detourCents, 0));
          expect(shown.gallonsTenths).toBe(shown.stops.reduce((t, s) => t + s.buyTenths, 0));
          expect(shown.totalCents).toBe(shown.fuelCents + shown.detourCents);
          // Rounding each row moves the total by at most half a cent per figure.
          expect(Math.abs(shown.totalCents - plan.totalCost * 100)).toBeLessThanOrEqual(plan.stops.length + 0.5);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
