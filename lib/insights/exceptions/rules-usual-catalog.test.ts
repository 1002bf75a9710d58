import { describe, expect, it } from "vitest";

import { distanceMiles } from "@/lib/route/geo";

import { impossibleTravel } from "./rules-catalog";
import { largeFill, medianOf, percentileOf, unusualProduct } from "./rules-usual";
import { historyOf, HOUR, input, MINUTE, purchase, TUESDAY_NOON } from "./test-purchases";
import type { CatalogStation } from "./types";

describe("large fill (above both the 99th percentile and 1.5 × the median of ≥ 20 earlier fills)", () => {
  // 20 fills of 100 gal and one of 140: median 100, p99 140 → limit max(140, 150) = 150 gal.
  const history = [...historyOf(20, [100_000]), ...historyOf(1, [140_000])];

  it("takes nearest-rank percentiles and the middle of an even list", () => {
    expect(percentileOf([1, 2, 3, 4], 99)).toBe(4);
    expect(percentileOf([1, 2, 3, 4], 50)).toBe(2);
    expect(medianOf([1, 2, 3, 4])).toBe(2.5);
  });

  it("flags 150.001 gal, not 150.000 (at the limit)", () => {
    expect(largeFill(input([purchase({ gallonsMilli: 150_000 })], { history })).hits).toEqual([]);
    const [hit] = largeFill(input([purchase({ gallonsMilli: 150_001 })], { history })).hits;
    expect(hit?.sentence()).toContain(
      "above its usual: 99th percentile 140.0 gal, 1.5 × median 100.0 gal over 21 earlier fills",
    );
  });

  it("uses the percentile when it is the larger limit", () => {
    const spread = [...historyOf(19, [100_000]), ...historyOf(2, [190_000])];
    expect(largeFill(input([purchase({ gallonsMilli: 180_000 })], { history: spread })).hits).toEqual([]);
    expect(largeFill(input([purchase({ gallonsMilli: 190_001 })], { history: spread })).hits).toHaveLength(1);
  });

  it("does not judge a truck with 19 earlier fills of the product, and says so; skips purchases with no truck", () => {
    const short = largeFill(input([purchase({ gallonsMilli: 500_000 })], { history: historyOf(19, [100_000]) }));
    expect(short.hits).toEqual([]);
    expect(short.notJudged).toMatch(/^1 fill was not judged: the truck had fewer than 20 earlier fills/);
    const none = largeFill(input([purchase({ gallonsMilli: 500_000, truckId: null })], { history }));
    expect(none).toEqual({ hits: [], notJudged: null });
  });

  it("compares with the same product only, and ignores failed history", () => {
    const unleaded = purchase({ product: "unleaded", gallonsMilli: 500_000 });
    expect(largeFill(input([unleaded], { history })).notJudged).not.toBeNull();
    const failed = historyOf(21, [10_000], { status: "failed" });
    expect(
      largeFill(input([purchase({ gallonsMilli: 150_001 })], { history: [...history, ...failed] })).hits,
    ).toHaveLength(1);
  });
});

describe("unusual product (< 2 % of ≥ 20 earlier fills of the truck)", () => {
  it("flags unleaded in a truck whose 50 earlier fills were diesel", () => {
    const [hit] = unusualProduct(
      input([purchase({ product: "unleaded" })], { history: historyOf(50, [100_000]) }),
    ).hits;
    expect(hit?.sentence()).toContain(
      "for truck T-100 (Tuesday 2026-11-17 12:00 local time), whose 50 earlier fills were 100 % diesel (unleaded: 0 %)",
    );
  });

  it("flags a product at 1.96 % of the history, not at exactly 2 %", () => {
    const atTwo = [...historyOf(49, [100_000]), ...historyOf(1, [20_000], { product: "unleaded" })];
    expect(unusualProduct(input([purchase({ product: "unleaded" })], { history: atTwo })).hits).toEqual([]);
    const under = [...historyOf(50, [100_000]), ...historyOf(1, [20_000], { product: "unleaded" })];
    expect(unusualProduct(input([purchase({ product: "unleaded" })], { history: under })).hits).toHaveLength(1);
  });

  it("does not judge a short history or a purchase with no truck", () => {
    const out = unusualProduct(input([purchase({ product: "unleaded" })], { history: historyOf(19, [100_000]) }));
    expect(out.hits).toEqual([]);
    expect(out.notJudged).toMatch(/^1 fill was not judged/);
    expect(unusualProduct(input([purchase({ product: "unleaded", truckId: null })])).notJudged).toBeNull();
  });
});

const catalog = new Map<string, CatalogStation>([
  ["st-a", { lat: 41.0, lng: -96.0 }],
  // One degree of latitude north: 69.09 miles.
  ["st-b", { lat: 42.0, lng: -96.0 }],
]);

describe("impossible travel (75 mph, at least 10 miles)", () => {
  const miles = distanceMiles({ lat: 41, lng: -96 }, { lat: 42, lng: -96 });
  const twoStops = (gapMs: number, more = {}) => [
    purchase({ stationId: "st-a" }),
    purchase({ stationId: "st-b", stationName: "Love's #7", atMs: TUESDAY_NOON + gapMs, ...more }),
  ];

  it("measures the great circle: one degree of latitude is 69.1 miles", () => {
    expect(miles).toBeCloseTo(69.09, 1);
  });

  it("flags 69 miles in 55 min (75 mph allows 68.75), not in the time 75 mph needs", () => {
    const [hit] = impossibleTravel(input(twoStops(55 * MINUTE), { catalog })).hits;
    expect(hit?.sentence()).toContain(
      "bought at Pilot #101 and then at Love's #7 69 mi away within 55 min (75 mi per hour; the limit is 75 mph)",
    );
    const needed = Math.ceil((miles / 75) * HOUR);
    expect(impossibleTravel(input(twoStops(needed), { catalog })).hits).toEqual([]);
  });

  it("does not flag stations closer than the minimum, nor another driver's purchase", () => {
    expect(impossibleTravel(input(twoStops(MINUTE), { catalog, thresholds: { travelMinMiles: 70 } })).hits).toEqual([]);
    expect(impossibleTravel(input(twoStops(MINUTE, { driverId: "dr-2" }), { catalog })).hits).toEqual([]);
  });

  it("skips a pair whose station is missing from the catalog, and says how many purchases", () => {
    const out = impossibleTravel(input(twoStops(MINUTE, { stationId: "st-gone" }), { catalog }));
    expect(out.hits).toEqual([]);
    expect(out.notJudged).toMatch(/^1 purchase was not judged: its station is not in the station catalog/);
  });
});
