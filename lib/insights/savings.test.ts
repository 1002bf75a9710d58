import { describe, expect, it } from "vitest";

import type { CatalogStation } from "@/lib/mirror";
import { distanceMiles } from "@/lib/route/geo";

import type { ObservedSpan } from "./price-observations";
import { computeSavings } from "./savings";
import type { SavingsFill } from "./savings-types";

// The savings arithmetic on hand-made observations at fixed instants (no clock): exact sums, the radius's edge, the
// window around a fill, the same station never compared with itself, the fills not compared counted by why, and "was
// the customer price applied?". Stations lie on one meridian, so their great-circle distances are exact multiples.

const MILES_PER_DEGREE = (Math.PI * (6_371_008.8 / 1609.344)) / 180;
const HOUR_MS = 3_600_000;
const WINDOW = { radiusMiles: 10, windowMs: 24 * HOUR_MS };
const FILL_AT = Date.parse("2026-03-05T15:00:00Z");
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
  lastSeenMs: FILL_AT,
});
/** One observed span per station, around the fill's instant unless said. */
const around = (prices: Record<string, number>, fromMs = FILL_AT - HOUR_MS, toMs = FILL_AT + HOUR_MS) =>
  new Map<string, ObservedSpan[]>(
    Object.entries(prices).map(([id, priceMilli]) => [id, [{ fromMs, toMs, priceMilli }]]),
  );
let n = 0;
const fill = (
  stationId: string,
  priceMilli: number,
  gallonsMilli: number,
  more: Partial<SavingsFill> = {},
): SavingsFill => ({
  id: `t${String(++n)}`,
  reference: `FF${String(n)}`,
  atMs: FILL_AT,
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
const observed = around({ A: 3_999, B: 3_799, C: 3_649, D: 3_099 });

describe("computeSavings", () => {
  it("puts the stations where the test says", () => {
    expect(distanceMiles(station("A", 0), station("C", 9.99))).toBeCloseTo(9.99, 9);
  });

  it("compares against the cheapest other station within the radius, edge inclusive, and sums exactly", () => {
    const { figures, top } = computeSavings(
      [fill("A", 4_019, 100_123), fill("A", 3_600, 50_000)],
      { stations, observed },
      WINDOW,
    );
    // C (9.99 mi, 3.649) is in; D (10.01 mi, 3.099) is out. (4.019 − 3.649) × 100.123 = 37.04551 → $37.05.
    expect(figures).toMatchObject({ considered: 2, fills: 2, gallons: "150.123", couldHaveSaved: "37.05" });
    expect(figures.fillsWithSaving).toBe(1);
    expect(top).toHaveLength(1);
    expect(top[0]).toMatchObject({ saving: "37.05", paid: "4.019" });
    expect(top[0]?.cheaper).toMatchObject({ id: "C", price: "3.649", miles: "10.0", apartMinutes: 0 });
    // A wider radius reaches D.
    const wider = computeSavings(
      [fill("A", 4_019, 100_123)],
      { stations, observed },
      { ...WINDOW, radiusMiles: 10.02 },
    );
    expect(wider.figures.couldHaveSaved).toBe("92.11");
  });

  it("never compares a fill with its own station: a price change there is not a missed saving", () => {
    // A is the cheapest station around, and was cheaper still than what this fill paid there: no saving.
    const own = around({ A: 3_099, B: 3_799 });
    const { figures, top } = computeSavings([fill("A", 3_499, 100_000)], { stations, observed: own }, WINDOW);
    expect(figures).toMatchObject({ fills: 1, couldHaveSaved: "0.00", fillsWithSaving: 0 });
    expect(top).toEqual([]);
    // Alone within the radius: not compared, counted apart (not "nothing to save").
    const alone = computeSavings([fill("A", 3_499, 100_000)], { stations: [station("A", 0)], observed: own }, WINDOW);
    expect(alone.figures).toMatchObject({
      considered: 1,
      fills: 0,
      notCompared: { noOtherStation: { fills: 1, gallons: "100.000" }, noObservation: { fills: 0 } },
    });
  });

  it("compares with prices observed within the window of the fill only, and counts the rest as not compared", () => {
    // B's price was observed from 30 h before the fill to 25 h before it: 25 h away, outside ±24 h.
    const stale = around({ B: 3_000 }, FILL_AT - 30 * HOUR_MS, FILL_AT - 25 * HOUR_MS);
    const far = computeSavings([fill("A", 3_999, 100_000)], { stations, observed: stale }, WINDOW);
    expect(far.figures).toMatchObject({
      considered: 1,
      fills: 0,
      couldHaveSaved: "0.00",
      notCompared: { noObservation: { fills: 1, gallons: "100.000" }, noOtherStation: { fills: 0 } },
    });
    // 23 h before the fill: within the window, compared, and the reply says how far the observation lay.
    const near = around({ B: 3_000 }, FILL_AT - 30 * HOUR_MS, FILL_AT - 23 * HOUR_MS);
    const within = computeSavings([fill("A", 3_999, 100_000)], { stations, observed: near }, WINDOW);
    expect(within.figures).toMatchObject({ fills: 1, couldHaveSaved: "99.90" });
    expect(within.top[0]?.cheaper).toMatchObject({ id: "B", apartMinutes: 23 * 60 });
  });

  it("uses the price in force at the fill's instant, not today's price", () => {
    // B cost 3.499 until 12:00 on the fill's day and 3.899 since (today's price): the fill at 15:00 is compared
    // with 3.899, an earlier fill at 09:00 with 3.499.
    const history = new Map<string, ObservedSpan[]>([
      [
        "B",
        [
          { fromMs: FILL_AT - 48 * HOUR_MS, toMs: FILL_AT - 4 * HOUR_MS, priceMilli: 3_499 },
          { fromMs: FILL_AT - 3 * HOUR_MS, toMs: FILL_AT + 500 * HOUR_MS, priceMilli: 3_899 },
        ],
      ],
    ]);
    const later = computeSavings([fill("A", 3_999, 100_000)], { stations, observed: history }, WINDOW);
    expect(later.figures.couldHaveSaved).toBe("10.00");
    const earlier = computeSavings(
      [fill("A", 3_999, 100_000, { atMs: FILL_AT - 6 * HOUR_MS })],
      { stations, observed: history },
      WINDOW,
    );
    expect(earlier.figures.couldHaveSaved).toBe("50.00");
  });

  it("rounds the exact sum once, not each fill", () => {
    // Two fills 0.004 dollars each over the cheapest: $0.008 → $0.01 (per fill it would be $0.00 + $0.00).
    const { figures } = computeSavings(
      [fill("A", 3_653, 1_000), fill("A", 3_653, 1_000)],
      { stations, observed },
      WINDOW,
    );
    expect(figures).toMatchObject({ couldHaveSaved: "0.01", fillsWithSaving: 2 });
  });

  it("counts fills at stations the catalog lacks and of other products apart, in the M of 'N of M'", () => {
    const { figures } = computeSavings(
      [fill("ZZ", 4_500, 80_000), fill("A", 3_500, 20_500, { product: "unleaded" }), fill("A", 3_999, 10_000)],
      { stations, observed },
      WINDOW,
    );
    expect(figures).toMatchObject({
      considered: 3,
      fills: 1,
      unknownStation: { fills: 1, gallons: "80.000" },
      otherProduct: { fills: 1, gallons: "20.500" },
    });
  });

  it("judges the product with the one classifier: ULSD is diesel, Diesel Exhaust Fluid is not", () => {
    const { figures } = computeSavings(
      [fill("A", 3_999, 10_000, { product: "ULSD" }), fill("A", 3_500, 20_500, { product: "Diesel Exhaust Fluid" })],
      { stations, observed },
      WINDOW,
    );
    expect(figures).toMatchObject({ fills: 1, otherProduct: { fills: 1, gallons: "20.500" } });
  });

  it("compares with the median of the state's observed prices (even counts: the mean of the middle two, half up)", () => {
    // KS prices 3.099, 3.649, 3.799, 3.999 → median (3.649 + 3.799) / 2 = 3.724.
    const { figures } = computeSavings(
      [fill("A", 3_824, 10_000), fill("A", 3_700, 10_000)],
      { stations, observed },
      WINDOW,
    );
    expect(figures).toMatchObject({ aboveStateMedian: "1.00", fillsAboveStateMedian: 1 });
    const odd = computeSavings([fill("A", 3_899, 10_000)], { stations: stations.slice(0, 3), observed }, WINDOW);
    expect(odd.figures.aboveStateMedian).toBe("1.00");
  });

  it("says whether the customer price was applied: each fill against its own station's observed price", () => {
    const fills = [
      fill("A", 4_099, 100_000), // 0.100 above A's 3.999: $10.00
      fill("A", 3_999, 50_000), // at the price
      fill("B", 3_800, 20_000), // 0.001 above B's 3.799: $0.02
      fill("A", 4_999, 10_000, { atMs: FILL_AT + 30 * HOUR_MS }), // no observation of A within 24 h: not checked
    ];
    const { figures } = computeSavings(fills, { stations, observed }, WINDOW);
    expect(figures.priceApplied).toEqual({ checked: 3, notChecked: 1, fillsAbove: 2, paidAbove: "10.02" });
  });

  it("lists the largest missed savings first, at most the number asked", () => {
    const fills = [1_000, 30_000, 20_000, 10_000].map((g) => fill("A", 3_749, g));
    const { top } = computeSavings(fills, { stations, observed }, WINDOW, 3);
    expect(top.map((t) => t.saving)).toEqual(["3.00", "2.00", "1.00"]);
  });
});
