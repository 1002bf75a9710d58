import { describe, expect, it } from "vitest";

import { localDayEndMs, priceInForce } from "./catalog";
import type { PriceRecord } from "./types";

// The price in force on a purchase-local date: the latest record that began before that local day ended.

const at = (iso: string) => Date.parse(iso);
const records: PriceRecord[] = [
  { updatedMs: at("2026-03-10T15:00:00Z"), priceMilli: 3_899 },
  { updatedMs: at("2026-03-12T06:00:00Z"), priceMilli: 3_749 },
];

describe("priceInForce", () => {
  it("is unknown before the first record's day and for a station without records", () => {
    expect(priceInForce(records, "2026-03-09", 0)).toBeNull();
    expect(priceInForce(undefined, "2026-03-12", 0)).toBeNull();
    expect(priceInForce([], "2026-03-12", 0)).toBeNull();
  });

  it("takes a record that began during the day as in force that day (the day's end decides)", () => {
    expect(priceInForce(records, "2026-03-10", 0)).toBe(3_899);
    expect(priceInForce(records, "2026-03-11", 0)).toBe(3_899);
    expect(priceInForce(records, "2026-03-12", 0)).toBe(3_749);
    expect(priceInForce(records, "2030-01-01", null)).toBe(3_749);
  });

  it("ends the day in the purchase's own offset", () => {
    // 2026-03-12T06:00Z is still 2026-03-11 at −06:00 until 06:00Z: that day ends exactly then (not before it).
    expect(localDayEndMs("2026-03-11", -360)).toBe(at("2026-03-12T06:00:00Z"));
    expect(priceInForce(records, "2026-03-11", -360)).toBe(3_899);
    // At −05:00 the 11th ends at 05:00Z, before the change; at +02:00 the 12th ends at 22:00Z on the 12th.
    expect(priceInForce(records, "2026-03-11", -300)).toBe(3_899);
    expect(priceInForce(records, "2026-03-12", 120)).toBe(3_749);
    // A record starting one millisecond before the day's end is in force that day.
    const edge: PriceRecord[] = [{ updatedMs: localDayEndMs("2026-03-11", -360) - 1, priceMilli: 4_000 }];
    expect(priceInForce(edge, "2026-03-11", -360)).toBe(4_000);
    expect(priceInForce(edge, "2026-03-10", -360)).toBeNull();
  });
});
