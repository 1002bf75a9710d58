import { describe, expect, it } from "vitest";

import type { Station } from "@/lib/model";
import { DEFAULT_ROUTE_OPTIONS, DEFAULT_TRUCK } from "@/lib/route";
import { candidate } from "@/lib/route/test-stations";

import type { PriceLookup } from "../shared/product-ranking";
import { catalogPriced, checkOrder, corridorDieselPrice, rankAndPlan, withCheckedPrices } from "./route-data";

const found = (prices: Record<string, string | null>): PriceLookup => ({
  kind: "found",
  prices,
  priceUpdatedAt: null,
  checkedAt: "2026-11-24T12:00:00Z",
});

describe("the Route mode's prices", () => {
  it("prices corridor stations by the catalog (diesel); stations without a price are left out", () => {
    const base = candidate("1", 0, 0, 0).station;
    const priced: Station = { ...base, price: "3.459" };
    const unpriced: Station = { ...base, id: "id-2", locNum: "2", price: null };
    expect(catalogPriced([priced, unpriced])).toEqual([{ station: priced, price: 3.459, priceText: "3.459" }]);
  });

  it("checks another product's prices nearest the path first (so the first checks cover the whole route)", () => {
    const far = candidate("A", 10, 8, 0);
    const near = candidate("B", 600, 0.2, 0);
    const tie = candidate("C", 5, 0.2, 0);
    expect(checkOrder([far, near, tie]).map((w) => [w.station.locNum, w.distanceMiles])).toEqual([
      ["C", 0.2],
      ["B", 0.2],
      ["A", 8],
    ]);
  });

  it("keeps the corridor stations whose checked detail gives the product, with that price", () => {
    const a = candidate("A", 10, 1, 0);
    const b = candidate("B", 20, 1, 0);
    const c = candidate("C", 30, 1, 0);
    const lookups = new Map<string, PriceLookup>([
      [a.station.id, found({ unleaded: "3.119", diesel: "3.5" })],
      [b.station.id, found({ unleaded: null })],
      [c.station.id, { kind: "not_found" }],
    ]);
    expect(withCheckedPrices([a, b, c], lookups, "unleaded")).toEqual([{ ...a, price: 3.119, priceText: "3.119" }]);
  });
});

describe("checked prices the planner cannot use", () => {
  it("leaves out a checked $0, a negative price and one that is not a number (lib/route's rule)", () => {
    const cands = ["A", "B", "C", "D", "E"].map((id, i) => candidate(id, 10 * (i + 1), 1, 0));
    const texts = ["0", "abc", "-1.2", "Infinity", "3.1"];
    const lookups = new Map<string, PriceLookup>(
      cands.map((c, i) => [c.station.id, found({ unleaded: texts[i] ?? null })]),
    );
    expect(withCheckedPrices(cands, lookups, "unleaded").map((x) => x.station.locNum)).toEqual(["E"]);
  });
});

describe("DEF along the route", () => {
  it("is ranked only, its detour's fuel at the corridor's mean catalog diesel price; no fill plan", () => {
    const route = { points: [], legs: [], totalMiles: 600 };
    const a = candidate("A", 100, 4, 2.9);
    const b = candidate("B", 200, 0, 3.1);
    const withDiesel = (c: typeof a, price: string | null) => ({ ...c, station: { ...c.station, price } });
    const corridor = [withDiesel(a, "4.000"), withDiesel(b, "3.000"), withDiesel(candidate("C", 300, 1, 1), null)];
    expect(corridorDieselPrice(corridor)).toBeCloseTo(3.5, 9);
    const truck = { ...DEFAULT_TRUCK, hourlyValue: 0 };
    const result = rankAndPlan(route, [a, b], truck, DEFAULT_ROUTE_OPTIONS, "def", 3.5);
    expect(result.plan).toBeNull();
    const ranked = result.ranked.find((c) => c.station.locNum === "A");
    expect(ranked?.detourCost).toBeCloseTo((a.detourMiles / truck.mpg) * 3.5, 9);
    expect(rankAndPlan(route, [a, b], truck, DEFAULT_ROUTE_OPTIONS, "diesel").plan).not.toBeNull();
  });

  it("plans first and judges each stop of the plan on the gallons the plan buys there", () => {
    const truck = { ...DEFAULT_TRUCK, hourlyValue: 0 };
    const route = { points: [], legs: [], totalMiles: 500 };
    const result = rankAndPlan(
      route,
      [candidate("A", 100, 1, 3.0), candidate("B", 110, 0, 3.5)],
      truck,
      DEFAULT_ROUTE_OPTIONS,
    );
    const [stop] = result.plan?.stops ?? [];
    const a = result.ranked.find((c) => c.station.locNum === "A");
    expect(stop?.candidate.station.locNum).toBe("A");
    expect(a?.gallons).toBeCloseTo(stop?.buyGallons ?? 0, 9);
    expect(a?.verdictText).toContain(`on the ${(stop?.buyGallons ?? 0).toFixed(1)} gal the plan buys here`);
  });
});
