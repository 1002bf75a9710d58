import { describe, expect, it } from "vitest";

import type { Station } from "@/lib/model";
import { candidate } from "@/lib/route/test-stations";

import type { PriceLookup } from "./product-ranking";
import { catalogPriced, checkOrder, withCheckedPrices } from "./route-data";

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
