import { describe, expect, it } from "vitest";

import { corridorCandidates } from "./corridor";
import { distanceMiles, MILES_PER_DEGREE_LAT } from "./geo";
import { DEFAULT_ROUTE_OPTIONS, DEFAULT_TRUCK, type TruckProfile } from "./options";
import { positionOnRoute, routeThrough } from "./path";
import { rankCandidates } from "./rank";
import { candidate, priced } from "./test-stations";

const OPTIONS = DEFAULT_ROUTE_OPTIONS;
// Due north along the 100th meridian: a station at longitude −100 ± x is x·cos(lat) degrees of arc off the path.
const ROUTE = routeThrough([
  { lat: 32, lng: -100 },
  { lat: 40, lng: -100 },
]);
/** The longitude offset that puts a point at 36° N `miles` off the meridian: sin(xt) = cos(lat) · sin(Δlng). */
const lngOff = (miles: number) =>
  (Math.asin(Math.sin(miles / (MILES_PER_DEGREE_LAT * (180 / Math.PI))) / Math.cos((36 * Math.PI) / 180)) * 180) /
  Math.PI;

describe("corridorCandidates", () => {
  it("keeps the stations within the corridor (the edge inside), with detour = 2 × off × circuity, in route order", () => {
    const edge = priced("00003", 36, -100 + lngOff(10), 3.5);
    const edgeOff = positionOnRoute(ROUTE, edge.station).offMiles;
    const options = { ...OPTIONS, corridorMiles: edgeOff };
    const stations = [
      priced("00005", 39, -100, 3.9),
      edge,
      priced("00002", 34, -100.05, 3.8),
      priced("00001", 34, -99.95, 3.7),
      // Just outside the edge, and far outside.
      priced("00004", 36, -100 - lngOff(10.01), 3.1),
      priced("00006", 36, -97, 2.9),
      // Beyond the end, within the corridor's distance of the end point only: in (clamped to the end).
      priced("00007", 40 + 5 / MILES_PER_DEGREE_LAT, -100, 3.3),
      { ...priced("00008", 36, -100, 3.3), price: Number.NaN },
      { ...priced("00009", 36, -100, 3.3), price: 0 },
    ];
    const cands = corridorCandidates(ROUTE, stations, options);
    expect(cands.map((c) => c.station.locNum)).toEqual(["00001", "00002", "00003", "00005", "00007"]);
    const edgeCand = cands.find((c) => c.station.locNum === "00003");
    expect(edgeCand?.offMiles).toBe(edgeOff);
    expect(edgeOff).toBeCloseTo(10, 9);
    for (const c of cands) {
      expect(c.detourMiles).toBeCloseTo(2 * c.offMiles * 1.25, 12);
      expect(c.detourHours).toBeCloseTo(c.detourMiles / 45, 12);
    }
    const end = cands.at(-1);
    expect(end?.alongMiles).toBeCloseTo(ROUTE.totalMiles, 6);
    expect(end?.offMiles).toBeCloseTo(5, 3);
    // Stations level with each other (same mile): the loc number decides.
    expect(cands[0]?.alongMiles).toBeCloseTo(cands[1]?.alongMiles ?? 0, 3);
  });

  it("finds the same stations as an exact scan over a big, spread catalog (the boxes lose none)", () => {
    const route = routeThrough([
      { lat: 47.6, lng: -122.3 },
      { lat: 41.9, lng: -87.6 },
      { lat: 33.7, lng: -84.4 },
    ]);
    const stations = Array.from({ length: 20_000 }, (_, i) =>
      priced(String(i).padStart(5, "0"), 25 + ((i * 7919) % 2400) / 100, -124 + ((i * 104_729) % 5700) / 100, 3.5),
    );
    const cands = corridorCandidates(route, stations, OPTIONS);
    const scan = stations.filter((s) => positionOnRoute(route, s.station).offMiles <= OPTIONS.corridorMiles);
    expect(cands.length).toBeGreaterThan(50);
    expect(new Set(cands.map((c) => c.station.locNum))).toEqual(new Set(scan.map((s) => s.station.locNum)));
  });

  it("works across the antimeridian too (vector geometry; a box that would straddle it skips its longitude test)", () => {
    // Attu (172.9° E) to Adak (176.6° W), Aleutians: not a US trucking route, but nothing in the maths is US-only.
    const aleutians = routeThrough([
      { lat: 52.93, lng: 172.9 },
      { lat: 51.88, lng: -176.66 },
    ]);
    const near = positionOnRoute(aleutians, { lat: 52.4, lng: 180 });
    const cands = corridorCandidates(
      aleutians,
      [priced("00001", 52.4, 180, 3.5), priced("00002", 52.4, -180, 3.5), priced("00003", 40, 180, 3.5)],
      { ...OPTIONS, corridorMiles: near.offMiles + 1 },
    );
    expect(cands.map((c) => c.station.locNum)).toEqual(["00001", "00002"]);
    expect(aleutians.totalMiles).toBeLessThan(500);
  });

  it("refuses options a person must fix", () => {
    expect(() => corridorCandidates(ROUTE, [], { ...OPTIONS, circuity: 0.9 })).toThrow(/circuity/);
    expect(() => corridorCandidates(ROUTE, [], { ...OPTIONS, corridorMiles: -1 })).toThrow(/corridor/);
    expect(() => corridorCandidates(ROUTE, [], { ...OPTIONS, detourSpeedMph: 0 })).toThrow(/speed/);
  });
});

describe("rankCandidates", () => {
  // 150 gal, 60 now, 6 mpg, 20 reserve, $36 an hour: round figures to check by hand.
  const truck: TruckProfile = { tankGallons: 150, fuelNowGallons: 60, mpg: 6, reserveGallons: 20, hourlyValue: 36 };
  const cands = [
    candidate("A", 120, 0, 4.0), // on the route: arrives with 60 − 120/6 = 40 gal, buys 110, effective $4.00
    candidate("B", 120, 4, 3.6), // detour 10 mi (0.2222 h): $6 of fuel + $8 of time = $14; buys 150 − (60 − 125/6)
    candidate("C", 120, 8, 3.95), // detour 20 mi: 20/6 × 3.95 + 16 = $29.1667; buys 111.6667
    candidate("D", 300, 0, 2.0), // arrives with 60 − 50 = 10 gal < 20 reserve: out of reach
    candidate("E", 60, 0.3, 4.1), // on the route (0.3 ≤ 0.5 mi) but dearer than A
  ];

  it("computes gallons, detour cost and effective price, and ranks by it (unreachable last)", () => {
    const ranked = rankCandidates(cands, truck, OPTIONS);
    expect(ranked.map((c) => c.station.locNum)).toEqual(["B", "A", "E", "C", "D"]);
    const by = Object.fromEntries(ranked.map((c) => [c.station.locNum, c]));
    expect(by.A?.gallons).toBeCloseTo(110, 9);
    expect(by.A?.detourCost).toBe(0);
    expect(by.A?.effectivePrice).toBeCloseTo(4, 12);
    expect(by.B?.gallons).toBeCloseTo(150 - (60 - 125 / 6), 9);
    expect(by.B?.detourCost).toBeCloseTo(14, 9);
    expect(by.B?.effectivePrice).toBeCloseTo(3.6 + 14 / 110.833333333, 6);
    expect(by.C?.detourCost).toBeCloseTo((20 / 6) * 3.95 + 16, 9);
    expect(by.D?.reachable).toBe(false);
    expect(by.B?.reachable).toBe(true);
  });

  it("judges each station against the best on-route one, in words", () => {
    const by = Object.fromEntries(rankCandidates(cands, truck, OPTIONS).map((c) => [c.station.locNum, c]));
    expect(by.A?.verdict).toBe("baseline");
    expect(by.A?.verdictText).toBe("baseline: the best stop on the route");
    // 110.8333 gal × ($4.00 − $3.60) − $14 = $30.33
    expect(by.B?.netSavings).toBeCloseTo(0.4 * (150 - (60 - 125 / 6)) - 14, 9);
    expect(by.B?.verdict).toBe("worth");
    expect(by.B?.verdictText).toBe("worth it: saves $30.33 net on a full tank here (110.8 gal)");
    // 111.6667 gal × $0.05 − $29.1667 = −$23.58
    expect(by.C?.netSavings).toBeCloseTo(111.6666667 * 0.05 - ((20 / 6) * 3.95 + 16), 6);
    expect(by.C?.verdict).toBe("not_worth");
    expect(by.C?.verdictText).toBe(
      "not worth it: the detour costs more than the lower price saves on a full tank here (111.7 gal)",
    );
    expect(by.E?.verdictText).toBe("not worth it: no cheaper than the baseline");
    expect(by.D?.verdict).toBe("not_worth");
    // No plan given: the sentence points at none.
    expect(by.D?.verdictText).toBe("beyond the fuel in the tank now: the truck must fill before it");
  });

  it("never ranks an unreachable station first, however cheap", () => {
    const ranked = rankCandidates([candidate("far", 400, 0, 0.5), candidate("near", 10, 2, 5)], truck, OPTIONS);
    expect(ranked[0]?.station.locNum).toBe("near");
    expect(ranked[0]?.reachable).toBe(true);
  });

  it("takes the nearest station to the path as the baseline when none is on it", () => {
    const ranked = rankCandidates([candidate("X", 50, 6, 3.5), candidate("Y", 50, 2, 3.9)], truck, OPTIONS);
    const by = Object.fromEntries(ranked.map((c) => [c.station.locNum, c]));
    expect(by.Y?.verdict).toBe("baseline");
    expect(by.Y?.verdictText).toBe("baseline: the nearest stop to the route (none on it)");
    expect(by.X?.verdict).toBe("worth");
  });

  it("says there is nothing to buy where the truck would arrive with a full tank", () => {
    const full = { ...truck, fuelNowGallons: 150 };
    const ranked = rankCandidates([candidate("here", 0, 0, 3.5), candidate("later", 60, 0, 3.9)], full, OPTIONS);
    const by = Object.fromEntries(ranked.map((c) => [c.station.locNum, c]));
    expect(by.here?.gallons).toBe(0);
    expect(by.here?.verdictText).toBe("not worth it: the tank would still be full");
    expect(by.later?.verdict).toBe("baseline");
    expect(ranked.map((c) => c.station.locNum)).toEqual(["later", "here"]);
  });

  it("refuses a truck a person must fix", () => {
    expect(() => rankCandidates([], { ...DEFAULT_TRUCK, mpg: 0 }, OPTIONS)).toThrow(/miles per gallon/);
    expect(() => rankCandidates([], { ...DEFAULT_TRUCK, fuelNowGallons: 200 }, OPTIONS)).toThrow(/fuel in the tank/);
    expect(() => rankCandidates([], { ...DEFAULT_TRUCK, reserveGallons: 150 }, OPTIONS)).toThrow(/reserve/);
  });

  it("prices the detour's fuel at the truck's fuel price when the product is another (DEF)", () => {
    const truck: TruckProfile = { ...DEFAULT_TRUCK, hourlyValue: 0 };
    const def = candidate("X", 100, 4, 3.0); // DEF at $3.000; the detour burns diesel at $4.000
    const [ranked] = rankCandidates([def], truck, DEFAULT_ROUTE_OPTIONS, 4.0);
    expect(ranked?.detourCost).toBeCloseTo((def.detourMiles / truck.mpg) * 4.0, 9);
    const [byOwnPrice] = rankCandidates([def], truck, DEFAULT_ROUTE_OPTIONS);
    expect(byOwnPrice?.detourCost).toBeCloseTo((def.detourMiles / truck.mpg) * 3.0, 9);
  });

  it("uses the project's one sphere", () => {
    expect(distanceMiles({ lat: 35, lng: -100 }, { lat: 36, lng: -100 })).toBeCloseTo(MILES_PER_DEGREE_LAT, 9);
  });
});
