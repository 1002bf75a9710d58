import { describe, expect, it } from "vitest";

import type { Station, StationPricesReply } from "@/lib/model";

import { lookupsFromReplies, priceCheckChunks, type PriceLookup, rankByProduct, withArticle } from "./product-ranking";
import { findWithin, sortByDistance, type StationWithin } from "./ranking";

const origin = { lat: 35, lng: -100 };
/** Due north of the origin at `miles` (69.09 mi per degree of latitude). */
const north = (miles: number) => origin.lat + miles / 69.0934;

function station(id: string, miles: number, dieselPrice: string | null = "3.500"): Station {
  return {
    id,
    locNum: id.padStart(5, "0"),
    name: `Station ${id}`,
    brand: "pilot",
    address: "",
    city: "Town",
    state: "TX",
    lat: north(miles),
    lng: -100,
    price: dieselPrice,
    priceUpdatedAt: "2026-01-01T00:00:00.000Z",
  };
}

const found = (prices: Record<string, string | null>): PriceLookup => ({
  kind: "found",
  prices,
  priceUpdatedAt: "2026-01-02T00:00:00.000Z",
  checkedAt: "2026-01-02T01:00:00.000Z",
});

describe("sortByDistance / findWithin", () => {
  it("gives the stations within the radius nearest first (ties by loc number)", () => {
    const stations = [station("3", 30), station("1", 10), station("9", 80), station("2", 10)];
    expect(sortByDistance(findWithin(stations, origin, 50)).map((c) => c.station.id)).toEqual(["1", "2", "3"]);
  });
});

describe("rankByProduct", () => {
  const candidates: StationWithin[] = sortByDistance(
    findWithin(
      [
        station("1", 1, "3.000"),
        station("2", 2, "3.900"),
        station("3", 3),
        station("4", 4),
        station("5", 5),
        station("6", 6),
      ],
      origin,
      50,
    ),
  );

  it("ranks the checked stations by the product's price, not the catalog's diesel price, then by distance", () => {
    const lookups = new Map<string, PriceLookup>([
      ["1", found({ diesel: "3.000", unleaded: "3.300", def: "4.100" })],
      ["2", found({ diesel: "3.900", unleaded: "3.100", def: null })],
      ["3", found({ diesel: "3.500", unleaded: "3.300", def: "3.900" })],
    ]);
    const ranking = rankByProduct(candidates, lookups, "unleaded", 3, 10);
    // Station 1 is the cheapest diesel, station 2 the cheapest unleaded; 1 and 3 tie on unleaded, 1 is nearer.
    expect(ranking.items.map((r) => r.station.id)).toEqual(["2", "1", "3"]);
    expect(ranking.items.map((r) => r.priceText)).toEqual(["3.100", "3.300", "3.300"]);
    expect(ranking.items[0]?.priceUpdatedAt).toBe("2026-01-02T00:00:00.000Z");
    expect(ranking.areaAverage).toBeCloseTo((3.1 + 3.3 + 3.3) / 3, 9);
    expect(ranking.items[0]?.diffFromAverage).toBeCloseTo(3.1 - (3.1 + 3.3 + 3.3) / 3, 9);
    expect(ranking.items[0]?.distanceMiles).toBeCloseTo(2, 1);
    expect(ranking).toMatchObject({
      product: "unleaded",
      candidates: 6,
      toCheck: 3,
      checked: 3,
      priced: 3,
      withoutProduct: [],
      notFound: [],
    });
  });

  it("lists checked stations without the product (an explicit null, or no entry at all) apart, nearest first, and leaves them out of the average", () => {
    const lookups = new Map<string, PriceLookup>([
      ["1", found({ diesel: "3.000", unleaded: "3.300", def: "4.100" })],
      ["2", found({ diesel: "3.900", unleaded: "3.100", def: null })],
      ["3", found({ diesel: "3.500", unleaded: "3.300" })],
    ]);
    const ranking = rankByProduct(candidates, lookups, "def", 3, 10);
    expect(ranking.items.map((r) => r.station.id)).toEqual(["1"]);
    expect(ranking.withoutProduct.map((c) => c.station.id)).toEqual(["2", "3"]);
    expect(ranking.areaAverage).toBe(4.1);
    expect(ranking.priced).toBe(1);
  });

  it("ranks only the nearest `checkLimit` candidates, counts the ones not answered yet, and reports stations not found", () => {
    const lookups = new Map<string, PriceLookup>([
      ["1", found({ unleaded: "3.500" })],
      ["2", { kind: "not_found" }],
      // Station 5 was checked earlier (a larger limit), but is beyond the limit now: not ranked, not counted.
      ["5", found({ unleaded: "2.000" })],
    ]);
    const ranking = rankByProduct(candidates, lookups, "unleaded", 4, 10);
    expect(ranking.items.map((r) => r.station.id)).toEqual(["1"]);
    expect(ranking.notFound.map((c) => c.station.id)).toEqual(["2"]);
    expect(ranking).toMatchObject({ candidates: 6, toCheck: 4, checked: 2, priced: 1 });
  });

  it("keeps the `limit` cheapest", () => {
    const lookups = new Map<string, PriceLookup>(
      candidates.map((c, i) => [c.station.id, found({ unleaded: (4 - i / 10).toFixed(3) })]),
    );
    expect(rankByProduct(candidates, lookups, "unleaded", 25, 2).items.map((r) => r.station.id)).toEqual(["6", "5"]);
  });

  it("has nothing to rank without candidates", () => {
    expect(rankByProduct([], new Map(), "def", 25, 10)).toMatchObject({
      items: [],
      candidates: 0,
      toCheck: 0,
      checked: 0,
      areaAverage: null,
    });
  });
});

describe("priceCheckChunks", () => {
  const candidates = sortByDistance(
    findWithin(
      Array.from({ length: 12 }, (_, i) => station(String(i + 1), i + 1)),
      origin,
      50,
    ),
  );
  it("splits the nearest `checkLimit` ids into chunks that stay the same as the limit grows", () => {
    expect(priceCheckChunks(candidates, 7, 5)).toEqual([
      ["1", "2", "3", "4", "5"],
      ["6", "7"],
    ]);
    expect(priceCheckChunks(candidates, 10, 5)[0]).toEqual(["1", "2", "3", "4", "5"]);
    expect(priceCheckChunks(candidates, 100, 5).flat()).toHaveLength(12);
    expect(priceCheckChunks(candidates, 0, 5)).toEqual([]);
  });
});

describe("lookupsFromReplies", () => {
  it("merges found and not-found stations of every reply; deferred ones stay unknown", () => {
    const replies: StationPricesReply[] = [
      {
        items: [
          {
            id: "a",
            prices: { diesel: "3.000", unleaded: "2.900", def: null },
            priceUpdatedAt: null,
            checkedAt: "2026-01-01T00:00:00.000Z",
          },
        ],
        notFound: ["b"],
        deferred: ["c"],
        retryAfterSeconds: 10,
      },
      { items: [], notFound: [], deferred: [], retryAfterSeconds: null },
    ];
    const lookups = lookupsFromReplies(replies);
    expect(lookups.get("a")).toMatchObject({ kind: "found", prices: { unleaded: "2.900", def: null } });
    expect(lookups.get("b")).toEqual({ kind: "not_found" });
    expect(lookups.has("c")).toBe(false);
  });
});

describe("withArticle", () => {
  it("reads well in a sentence", () => {
    expect(withArticle("unleaded")).toBe("an unleaded");
    expect(withArticle("def")).toBe("a DEF");
    expect(withArticle("diesel")).toBe("a diesel");
  });
});
