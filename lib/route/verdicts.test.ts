import { describe, expect, it } from "vitest";

import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "./options";
import type { Route } from "./path";
import { planFills } from "./plan";
import { rankCandidates } from "./rank";
import { candidate } from "./test-stations";

// Issue 25, item 5: a verdict is about the gallons the plan buys at that stop (or says the amount it assumes), one
// wording per reason, and never points at a plan that does not exist. Hand-placed stations, figures checked by hand.

const OPTIONS = DEFAULT_ROUTE_OPTIONS;
const routeOf = (miles: number): Route => ({ points: [], legs: [], totalMiles: miles });
/** The page's default truck: 150 gal tank, 60 now, 6.5 mpg, 20 reserve, $35 an hour. */
const TRUCK: TruckProfile = { tankGallons: 150, fuelNowGallons: 60, mpg: 6.5, reserveGallons: 20, hourlyValue: 35 };
const byLoc = <T extends { station: { locNum: string } }>(rows: readonly T[]) =>
  Object.fromEntries(rows.map((r) => [r.station.locNum, r]));

describe("route verdicts from the plan's numbers", () => {
  // Dallas → Denver as the finding saw it: the cheapest station near the start, the next ones far on, dearer; the
  // plan buys just enough there to reach them (about 63 gal), not a full tank (about 91).
  const cands = [
    candidate("base", 0, 1.32, 3.329), // nearest the path, none on it: the baseline
    candidate("cheap", 1.7, 2.91, 3.229),
    candidate("far", 654, 0.3, 3.569),
  ];
  const route = routeOf(660);

  it("judges a stop of the plan on the gallons the plan buys there, and says so", () => {
    const plan = planFills(route, cands, TRUCK, OPTIONS);
    const stop = plan.stops.find((s) => s.candidate.station.locNum === "cheap");
    expect(stop?.buyGallons).toBeGreaterThan(50);
    expect(stop?.buyGallons).toBeLessThan(80);
    const bought = stop?.buyGallons ?? 0;
    const by = byLoc(rankCandidates(cands, TRUCK, OPTIONS, null, plan));
    const cheap = by.cheap;
    const base = by.base;
    if (cheap === undefined || base === undefined) throw new Error("missing row");
    expect(cheap.gallons).toBeCloseTo(bought, 9);
    expect(cheap.gallonsBasis).toBe("plan");
    // The same gallons at the baseline, each with its own detour: g × ($3.329 − $3.229) + detour(base) − detour(cheap).
    expect(cheap.netSavings).toBeCloseTo(bought * 0.1 + base.detourCost - cheap.detourCost, 9);
    expect(cheap.netSavings).toBeLessThan(2);
    expect(cheap.verdictText).toBe(
      `worth it: saves $${cheap.netSavings.toFixed(2)} net on the ${bought.toFixed(1)} gal the plan buys here`,
    );
  });

  it("states the amount it assumes where the plan does not stop: a full tank", () => {
    const plan = planFills(route, cands, TRUCK, OPTIONS);
    const ranked = rankCandidates([...cands, candidate("other", 3, 4, 3.28)], TRUCK, OPTIONS, null, plan);
    const other = byLoc(ranked).other;
    expect(other?.gallonsBasis).toBe("full_tank");
    const full = 150 - (60 - (3 + 5) / 6.5);
    expect(other?.gallons).toBeCloseTo(full, 9);
    expect(other?.verdictText).toMatch(new RegExp(`on a full tank here \\(${full.toFixed(1)} gal\\)$`));
  });

  it("says a plan's stop past the fuel now is the plan's, with its gallons", () => {
    // 1,200 mi: a full tank at "cheap" reaches mile 846; the plan stops at "far" too.
    const plan = planFills(routeOf(1200), cands, TRUCK, OPTIONS);
    const far = plan.stops.findIndex((s) => s.candidate.station.locNum === "far");
    expect(far).toBe(1);
    const row = byLoc(rankCandidates(cands, TRUCK, OPTIONS, null, plan)).far;
    expect(row?.verdictText).toBe(
      `stop 2 of the plan, after filling before it: it buys ${(plan.stops[1]?.buyGallons ?? 0).toFixed(1)} gal here`,
    );
  });

  it("has one wording per reason: two stations dearer than the baseline at the pump read the same", () => {
    // The baseline (nearest the path, 1 mi off) at $3.300. "near": $3.310, a little dearer, 1.5 mi off (dearer than
    // the baseline's price but under its price per gallon with its detour); "dear": $3.400, 3 mi off.
    const rows = byLoc(
      rankCandidates(
        [candidate("base", 10, 1, 3.3), candidate("near", 12, 1.5, 3.31), candidate("dear", 14, 3, 3.4)],
        TRUCK,
        OPTIONS,
      ),
    );
    expect(rows.base?.verdict).toBe("baseline");
    expect(rows.near?.price).toBeLessThan(rows.base?.effectivePrice ?? 0);
    expect(rows.near?.verdictText).toBe("not worth it: no cheaper than the baseline");
    expect(rows.dear?.verdictText).toBe("not worth it: no cheaper than the baseline");
  });

  it("says the detour eats the saving only for a station cheaper at the pump", () => {
    const rows = byLoc(rankCandidates([candidate("base", 10, 0, 3.3), candidate("off", 12, 9, 3.29)], TRUCK, OPTIONS));
    expect(rows.off?.verdictText).toMatch(/^not worth it: the detour costs more than the lower price saves on a full/);
  });

  it("never refers to a plan that does not exist", () => {
    // From "near" (mile 5) a full tank (130 gal above the reserve) reaches mile 850; the next station is at mile 900.
    const gap = [candidate("near", 5, 0, 3.4), candidate("beyond", 900, 0, 3.1)];
    const plan = planFills(routeOf(1000), gap, TRUCK, OPTIONS);
    expect(plan.feasible).toBe(false);
    const withPlan = byLoc(rankCandidates(gap, TRUCK, OPTIONS, null, plan));
    expect(withPlan.beyond?.verdictText).toBe("beyond the fuel in the tank now: the truck must fill before it");
    // No plan made at all (DEF): no "see the plan" either.
    const none = byLoc(rankCandidates(gap, TRUCK, OPTIONS, 4.0, null));
    expect(none.beyond?.verdictText).not.toMatch(/plan/);
    // With a plan, the pointer stays.
    const ok = planFills(routeOf(1000), [...gap, candidate("mid", 450, 0, 3.5)], TRUCK, OPTIONS);
    expect(ok.feasible).toBe(true);
    const rows = rankCandidates([...gap, candidate("mid", 450, 0, 3.5)], TRUCK, OPTIONS, null, ok);
    for (const r of rows) if (!r.reachable && r.planStop === null) expect(r.verdictText).toMatch(/see the plan/);
  });
});
