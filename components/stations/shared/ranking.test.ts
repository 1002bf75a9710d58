import { describe, expect, it } from "vitest";

import type { Station } from "@/lib/model";

import { cheapestPriceBound, describeDifference, distanceMiles, rankNearby, rankPriced } from "./ranking";

function station(id: string, lat: number, lng: number, price: string | null): Station {
  return {
    id,
    locNum: id.padStart(5, "0"),
    name: `Station ${id}`,
    brand: "pilot",
    address: "1 Main St",
    city: "Town",
    state: "TX",
    lat,
    lng,
    price,
    priceUpdatedAt: null,
  };
}

describe("distanceMiles", () => {
  it("is the great-circle distance in statute miles", () => {
    // New York (JFK) to Los Angeles (LAX): 2,469.5 statute miles on the mean-radius sphere (2,475 on the ellipsoid).
    expect(distanceMiles({ lat: 40.6413, lng: -73.7781 }, { lat: 33.9416, lng: -118.4085 })).toBeCloseTo(2469.5, 0);
    // One degree of latitude on the mean-radius sphere: 69.09 miles.
    expect(distanceMiles({ lat: 35, lng: -100 }, { lat: 36, lng: -100 })).toBeCloseTo(69.09, 1);
    // A degree of longitude shrinks with the cosine of the latitude.
    expect(distanceMiles({ lat: 60, lng: -100 }, { lat: 60, lng: -99 })).toBeCloseTo(69.09 * Math.cos(Math.PI / 3), 0);
    expect(distanceMiles({ lat: 35, lng: -100 }, { lat: 35, lng: -100 })).toBe(0);
  });
});

describe("rankNearby", () => {
  const origin = { lat: 35, lng: -100 };
  // Due north of the origin, at known distances (69.09 mi per degree).
  const north = (miles: number) => origin.lat + miles / 69.0934;

  it("ranks the stations within the radius by price, then distance, and compares them with the area average", () => {
    const stations = [
      station("1", north(10), -100, "3.500"),
      station("2", north(20), -100, "3.300"),
      station("3", north(5), -100, "3.300"),
      station("4", north(40), -100, "3.900"),
      station("5", north(80), -100, "2.000"), // outside 50 mi
    ];
    const ranking = rankNearby(stations, origin, 50, 3);
    expect(ranking.items.map((r) => r.station.id)).toEqual(["3", "2", "1"]);
    expect(ranking.inRadius).toBe(4);
    expect(ranking.areaAverage).toBeCloseTo((3.5 + 3.3 + 3.3 + 3.9) / 4, 9);
    expect(ranking.items[0]?.diffFromAverage).toBeCloseTo(3.3 - 3.5, 9);
    expect(ranking.items[0]?.distanceMiles).toBeCloseTo(5, 1);
  });

  it("counts a station exactly on the radius as inside, and one just beyond as outside", () => {
    const onEdge = station("edge", 35, -100, "3.000");
    const miles = distanceMiles(origin, { lat: north(25), lng: -100 });
    const atEdge = { ...onEdge, lat: north(25) };
    expect(rankNearby([atEdge], origin, miles, 10).items).toHaveLength(1);
    expect(rankNearby([atEdge], origin, miles - 0.001, 10).items).toHaveLength(0);
    // East-west edges too, where the longitude box matters.
    const east = { ...onEdge, id: "east", lat: 35, lng: -100 + 25 / (69.0934 * Math.cos((35 * Math.PI) / 180)) };
    const eastMiles = distanceMiles(origin, east);
    expect(rankNearby([east], origin, eastMiles, 10).items).toHaveLength(1);
    expect(rankNearby([east], origin, eastMiles - 0.001, 10).items).toHaveLength(0);
  });

  it("leaves stations without a price out of the ranking and the average, but counts them", () => {
    const ranking = rankNearby([station("1", 35, -100, null), station("2", north(1), -100, "3.100")], origin, 10, 5);
    expect(ranking.items.map((r) => r.station.id)).toEqual(["2"]);
    expect(ranking.unpriced).toBe(1);
    expect(ranking.areaAverage).toBe(3.1);
  });

  it("is empty with no average when nothing is within the radius", () => {
    expect(rankNearby([station("1", 40, -90, "3.000")], origin, 10, 5)).toEqual({
      items: [],
      inRadius: 0,
      unpriced: 0,
      areaAverage: null,
    });
  });
});

describe("describeDifference", () => {
  it("says cents below or above the area average", () => {
    expect(describeDifference(-0.12)).toBe("12¢ below area average");
    expect(describeDifference(0.031)).toBe("3¢ above area average");
    expect(describeDifference(0.004)).toBe("at the area average");
  });
});

describe("rankPriced compares only the stations that can be among the cheapest", () => {
  it("gives the same ranking as sorting them all, ties at the cut included", () => {
    const station = (locNum: string) => ({ locNum }) as unknown as Parameters<typeof rankPriced>[0][number]["station"];
    const priced = [3.2, 3.1, 3.1, 3.3, 3.1, 3.0, 3.2].map((price, i) => ({
      station: station(String(10 - i)),
      price,
      priceText: price.toFixed(3),
      priceUpdatedAt: null,
      distanceMiles: null,
    }));
    expect(cheapestPriceBound(priced, 3)).toBe(3.1);
    expect(cheapestPriceBound(priced, 10)).toBe(Infinity);
    const ranked = rankPriced(priced, 3).items.map((s) => `${String(s.price)}:${s.station.locNum}`);
    // 3.0 first, then the three stations at 3.1 (loc numbers 9, 8, 6) by loc number: the first two of them.
    expect(ranked).toEqual(["3:5", "3.1:6", "3.1:8"]);
    expect(rankPriced(priced, 0).items).toEqual([]);
  });
});
