import { describe, expect, it } from "vitest";

import type { CatalogStation, MirrorCatalog, PriceRecord } from "@/lib/mirror/catalog";
import { distanceMiles } from "@/lib/route/geo";

import { computeSavings, type SavingsFill } from "./savings";

// The savings arithmetic on a hand-made catalog: exact sums, the radius's edge, stations the catalog lacks, history
// against today's catalog. Stations lie on one meridian, so their great-circle distances are exact multiples.

const MILES_PER_DEGREE = (Math.PI * (6_371_008.8 / 1609.344)) / 180;
const north = (miles: number) => 40 + miles / MILES_PER_DEGREE;
const station = (id: string, miles: number, state = "KS"): CatalogStation => ({
  id,
  name: `Station ${id}`,
  brand: "pilot",
  address: "1 Main St",
  city: "Salina",
  state,
  lat: north(miles),
  lng: -97.6,
  current: true,
});
const JAN_1 = Date.parse("2026-01-01T00:00:00Z");
const since = (prices: Record<string, number>, updatedMs = JAN_1): Map<string, PriceRecord[]> =>
  new Map(Object.entries(prices).map(([id, priceMilli]) => [id, [{ updatedMs, priceMilli }]]));
const catalogOf = (stations: CatalogStation[], prices: Map<string, PriceRecord[]>): MirrorCatalog => ({
  stations,
  prices,
  lastWalkMs: JAN_1,
  historyFromMs: JAN_1,
});
let n = 0;
const fill = (
  stationId: string,
  priceMilli: number,
  gallonsMilli: number,
  more: Partial<SavingsFill> = {},
): SavingsFill => ({
  id: `t${String(++n)}`,
  reference: `FF${String(n)}`,
  atMs: Date.parse("2026-03-05T15:00:00Z"),
  offsetMin: -360,
  localDate: "2026-03-05",
  stationId,
  stationName: `Station ${stationId}`,
  stationCity: "Salina",
  stationState: "KS",
  driverId: "d1",
  driverName: "Ann Lee",
  product: "diesel",
  gallonsMilli,
  priceMilli,
  ...more,
});

const stations = [station("A", 0), station("B", 5), station("C", 9.99), station("D", 10.01)];
const prices = since({ A: 3_999, B: 3_799, C: 3_649, D: 3_099 });

describe("computeSavings", () => {
  it("puts the stations where the test says", () => {
    expect(distanceMiles(station("A", 0), station("C", 9.99))).toBeCloseTo(9.99, 9);
  });

  it("compares against the cheapest station within the radius, edge inclusive, and sums exactly", () => {
    const { figures, top } = computeSavings(
      [fill("A", 4_019, 100_123), fill("A", 3_600, 50_000)],
      catalogOf(stations, prices),
      10,
    );
    // C (9.99 mi, 3.649) is in; D (10.01 mi, 3.099) is out. (4.019 − 3.649) × 100.123 = 37.04551 → $37.05.
    expect(figures).toMatchObject({ fills: 2, gallons: "150.123", couldHaveSaved: "37.05", fillsWithSaving: 1 });
    expect(top).toHaveLength(1);
    expect(top[0]).toMatchObject({ saving: "37.05", paid: "4.019", basis: "history" });
    expect(top[0]?.cheaper).toMatchObject({ id: "C", price: "3.649", miles: "10.0" });
    // A wider radius reaches D.
    expect(computeSavings([fill("A", 4_019, 100_123)], catalogOf(stations, prices), 10.02).figures.couldHaveSaved).toBe(
      "92.11",
    );
  });

  it("rounds the exact sum once, not each fill", () => {
    // Two fills 0.004 dollars each over the cheapest: $0.008 → $0.01 (per fill it would be $0.00 + $0.00).
    const { figures } = computeSavings(
      [fill("A", 3_653, 1_000), fill("A", 3_653, 1_000)],
      catalogOf(stations, prices),
      10,
    );
    expect(figures).toMatchObject({ couldHaveSaved: "0.01", fillsWithSaving: 2 });
  });

  it("counts fills at stations the catalog lacks and of other products apart", () => {
    const { figures } = computeSavings(
      [fill("ZZ", 4_500, 80_000), fill("A", 3_500, 20_500, { product: "unleaded" }), fill("A", 3_999, 10_000)],
      catalogOf(stations, prices),
      10,
    );
    expect(figures).toMatchObject({
      fills: 1,
      unknownStation: { fills: 1, gallons: "80.000" },
      otherProduct: { fills: 1, gallons: "20.500" },
    });
  });

  it("judges the product with the one classifier: ULSD is diesel, Diesel Exhaust Fluid is not", () => {
    const { figures } = computeSavings(
      [fill("A", 3_999, 10_000, { product: "ULSD" }), fill("A", 3_500, 20_500, { product: "Diesel Exhaust Fluid" })],
      catalogOf(stations, prices),
      10,
    );
    expect(figures).toMatchObject({ fills: 1, otherProduct: { fills: 1, gallons: "20.500" } });
  });

  it("uses the price in force on the purchase day where history knows it, else today's catalog", () => {
    // B was 3.499 until 2026-03-10 and is 3.799 now; C's history starts after the fill (unknown that day).
    const history = new Map<string, PriceRecord[]>([
      ["A", [{ updatedMs: JAN_1, priceMilli: 3_999 }]],
      [
        "B",
        [
          { updatedMs: JAN_1, priceMilli: 3_499 },
          { updatedMs: Date.parse("2026-03-10T12:00:00Z"), priceMilli: 3_799 },
        ],
      ],
    ]);
    const near = [station("A", 0), station("B", 5)];
    const known = computeSavings([fill("A", 3_999, 100_000)], catalogOf(near, history), 10);
    expect(known.figures).toMatchObject({ couldHaveSaved: "50.00", basis: { history: 1, today: 0 } });
    // With C (history from 2026-04-01 only) within the radius, the day is not known for every station: today's
    // prices for the whole comparison (B 3.799, C 3.649).
    const later = new Map(history).set("C", [{ updatedMs: Date.parse("2026-04-01T00:00:00Z"), priceMilli: 3_649 }]);
    const unknownDay = computeSavings([fill("A", 3_999, 100_000)], catalogOf([...near, station("C", 9)], later), 10);
    expect(unknownDay.figures).toMatchObject({ couldHaveSaved: "35.00", basis: { history: 0, today: 1 } });
    expect(unknownDay.top[0]).toMatchObject({ basis: "today", cheaper: { id: "C" } });
  });

  it("compares with the state's median (even counts: the mean of the middle two, half up)", () => {
    const four = catalogOf(stations, prices);
    // KS prices 3.099, 3.649, 3.799, 3.999 → median (3.649 + 3.799) / 2 = 3.724.
    const { figures } = computeSavings([fill("A", 3_824, 10_000), fill("A", 3_700, 10_000)], four, 10);
    expect(figures).toMatchObject({ aboveStateMedian: "1.00", fillsAboveStateMedian: 1 });
    const odd = catalogOf(stations.slice(0, 3), prices);
    expect(computeSavings([fill("A", 3_899, 10_000)], odd, 10).figures.aboveStateMedian).toBe("1.00");
  });

  it("lists the largest missed savings first, at most the number asked", () => {
    const fills = [1_000, 30_000, 20_000, 10_000].map((g) => fill("A", 3_749, g));
    const { top } = computeSavings(fills, catalogOf(stations, prices), 10, 3);
    expect(top.map((t) => t.saving)).toEqual(["3.00", "2.00", "1.00"]);
  });
});
