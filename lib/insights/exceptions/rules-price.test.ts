import { describe, expect, it } from "vitest";

import type { ObservedSpan } from "@/lib/insights/price-observations";

import { aboveCatalogPrice } from "./rules-catalog";
import { HOUR, input, purchase, TUESDAY_NOON } from "./test-purchases";
import type { CatalogStation, RuleInput } from "./types";

// Issue 25 item 3: "was the customer price applied?" as an exception rule — each diesel fill against its station's
// customer price observed around the purchase (±24 h here), margin $0.10 by default; never today's price for an older
// fill. Hand-made observations at fixed instants (no clock).

const catalog = new Map<string, CatalogStation>([
  ["st-a", { lat: 41.0, lng: -96.0 }],
  ["st-b", { lat: 42.0, lng: -96.0 }],
]);
const WINDOW = 24 * HOUR;
const observedOf = (spans: Record<string, ObservedSpan[]>): RuleInput["observed"] => ({
  prices: new Map(Object.entries(spans)),
  windowMs: WINDOW,
});
/** st-a: 3.759 from two days before Tuesday noon to an hour after it; 3.459 (today's price) from a week later. */
const observed = observedOf({
  "st-a": [
    { fromMs: TUESDAY_NOON - 48 * HOUR, toMs: TUESDAY_NOON + HOUR, priceMilli: 3_759 },
    { fromMs: TUESDAY_NOON + 7 * 24 * HOUR, toMs: TUESDAY_NOON + 9 * 24 * HOUR, priceMilli: 3_459 },
  ],
});

describe("price above the station's customer price at the time (margin $0.10 by default)", () => {
  it("flags a diesel price 0.101 above the price observed at the time, not 0.100, with the extra paid", () => {
    expect(aboveCatalogPrice(input([purchase({ priceMilli: 3_859 })], { catalog, observed })).hits).toEqual([]);
    const [hit] = aboveCatalogPrice(input([purchase({ priceMilli: 3_860 })], { catalog, observed })).hits;
    expect(hit?.sentence()).toContain("Paid $3.860/gal for 100.0 gal of diesel at Pilot #101");
    expect(hit?.sentence()).toContain("$0.101 above its customer price $3.759 observed at the time: $10.10 more.");
  });

  it("never compares an older fill with today's price: 3.759 then, though the station charges 3.459 now", () => {
    // 0.300 above today's price, 0.000 above the price then: no hit.
    expect(aboveCatalogPrice(input([purchase({ priceMilli: 3_759 })], { catalog, observed })).hits).toEqual([]);
  });

  it("takes the nearest observation within the window, and says how far from the purchase it was", () => {
    const later = purchase({ atMs: TUESDAY_NOON + 20 * HOUR, priceMilli: 3_900 });
    const [hit] = aboveCatalogPrice(input([later], { catalog, observed })).hits;
    expect(hit?.sentence()).toContain("$0.141 above its customer price $3.759 observed 19 h from the purchase");
  });

  it("does not judge a fill with no observation within the window, and says how many and why", () => {
    const between = purchase({ atMs: TUESDAY_NOON + 3 * 24 * HOUR, priceMilli: 9_999 });
    const unseen = purchase({ stationId: "st-b", priceMilli: 9_999 });
    const out = aboveCatalogPrice(input([between, unseen], { catalog, observed }));
    expect(out.hits).toEqual([]);
    expect(out.notJudged).toBe(
      "2 purchases were not judged: no price of their stations was observed within 24 h of them (the catalog walks record the prices; a purchase before the first walk, or far from any, has none).",
    );
  });

  it("compares a 'Diesel' fill by the one classifier, with the extra in whole cents; leaves other products alone", () => {
    // 0.101 × 123.457 gal = $12.469157 → $12.47.
    const diesel = purchase({ product: "Diesel", priceMilli: 3_860, gallonsMilli: 123_457 });
    const [hit] = aboveCatalogPrice(input([diesel], { catalog, observed })).hits;
    expect(hit?.sentence()).toContain("$0.101 above its customer price $3.759 observed at the time: $12.47 more.");
    const unleaded = purchase({ product: "unleaded", priceMilli: 9_999 });
    expect(aboveCatalogPrice(input([unleaded], { catalog, observed }))).toEqual({ hits: [], notJudged: null });
  });

  it("counts stations missing from the catalog; runs nothing without the catalog or the observations", () => {
    const missing = aboveCatalogPrice(input([purchase({ stationId: "st-gone" })], { catalog, observed }));
    expect(missing.notJudged).toMatch(/^1 purchase was not judged: its station is not in the station catalog\.$/);
    expect(aboveCatalogPrice(input([purchase({ priceMilli: 9_999 })], { observed }))).toEqual({
      hits: [],
      notJudged: null,
    });
    expect(aboveCatalogPrice(input([purchase({ priceMilli: 9_999 })], { catalog }))).toEqual({
      hits: [],
      notJudged: null,
    });
  });
});
