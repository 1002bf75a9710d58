import { describe, expect, it } from "vitest";

import { MILES_PER_DEGREE_LAT } from "./geo";
import { DEFAULT_ROUTE_OPTIONS, type TruckProfile } from "./options";
import { suggestPlanFixes } from "./suggest";
import { priced } from "./test-stations";

// Due north along the 100th meridian, 32° N → 40° N (≈ 553 mi). 50 gal tank, 10 reserve, 5 mpg: 200 mi of range,
// 100 mi on the fuel now. Stations: A on the path at 33° N (≈ 69 mi), C on it at 38° N (≈ 415 mi): 345 mi apart,
// no plan in a 10-mile corridor. B at 35.5° N, 12 mi east of the path, bridges the gap.
const TRUCK: TruckProfile = { tankGallons: 50, fuelNowGallons: 30, mpg: 5, reserveGallons: 10, hourlyValue: 30 };
const START = { lat: 32, lng: -100 };
const END = { lat: 40, lng: -100 };
/** The longitude `miles` east of the meridian at latitude `lat` (small distances: a flat approximation is enough). */
const east = (lat: number, miles: number) => -100 + miles / (MILES_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180));
const A = priced("A", 33, -100, 3.5);
const C = priced("C", 38, -100, 3.6);
const bridge = (off: number) => priced("B", 35.5, east(35.5, off), 3.4);
const LIMITS = { maxCorridorMiles: 50, canAddVia: true };

describe("suggestPlanFixes", () => {
  it("finds the narrowest wider corridor with a plan, and a via point through the station in the gap", () => {
    const fixes = suggestPlanFixes([START, END], [A, bridge(12), C], TRUCK, DEFAULT_ROUTE_OPTIONS, LIMITS);
    expect(fixes?.corridorMiles).toBe(15);
    expect(fixes?.via).toMatchObject({ label: "Station B, Town, KS", index: 0, point: { lat: 35.5 } });
    expect(fixes?.via?.offMiles).toBeCloseTo(12, 0);
  });

  it("offers the via point alone when no corridor up to the page's maximum reaches the station", () => {
    // 32° N → 36° N (≈ 276 mi): a full tank at A (32.2° N, ≈ 14 mi) reaches mile ≈ 214, short of the end. B, 60 mi
    // east at 34.5° N, is out of any corridor the page allows; through it the route has a plan.
    const end = { lat: 36, lng: -100 };
    const a = priced("A", 32.2, -100, 3.5);
    const b = priced("B", 34.5, east(34.5, 60), 3.4);
    const fixes = suggestPlanFixes([START, end], [a, b], TRUCK, DEFAULT_ROUTE_OPTIONS, LIMITS);
    expect(fixes?.corridorMiles).toBeNull();
    expect(fixes?.via?.label).toBe("Station B, Town, KS");
    // A route at its maximum of via points gets no via suggestion.
    const full = suggestPlanFixes([START, end], [a, b], TRUCK, DEFAULT_ROUTE_OPTIONS, { ...LIMITS, canAddVia: false });
    expect(full).toEqual({ corridorMiles: null, via: null });
  });

  it("puts the via point on the leg the gap is on", () => {
    const mid = { lat: 34, lng: -100 };
    const fixes = suggestPlanFixes([START, mid, END], [A, bridge(12), C], TRUCK, DEFAULT_ROUTE_OPTIONS, LIMITS);
    expect(fixes?.via?.index).toBe(1);
  });

  it("suggests nothing when a plan exists, or when no route change can help (the truck starts under its reserve)", () => {
    expect(suggestPlanFixes([START, END], [A, bridge(5), C], TRUCK, DEFAULT_ROUTE_OPTIONS, LIMITS)).toBeNull();
    const under = { ...TRUCK, fuelNowGallons: 5 };
    expect(suggestPlanFixes([START, END], [A, bridge(12), C], under, DEFAULT_ROUTE_OPTIONS, LIMITS)).toBeNull();
  });
});
