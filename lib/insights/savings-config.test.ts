import { describe, expect, it } from "vitest";

import { parseSavingsConfig } from "./savings-config";

describe("parseSavingsConfig", () => {
  it("defaults to 10 miles, 6 hours and a ±24 h price window, and reads set values", () => {
    expect(parseSavingsConfig({})).toEqual({
      radiusMiles: 10,
      catalogRefreshMs: 6 * 3_600_000,
      windowHours: 24,
      windowMs: 24 * 3_600_000,
    });
    expect(
      parseSavingsConfig({ SAVINGS_RADIUS_MILES: "2.5", CATALOG_REFRESH_HOURS: "24", PRICE_WINDOW_HOURS: "1.5" }),
    ).toEqual({ radiusMiles: 2.5, catalogRefreshMs: 24 * 3_600_000, windowHours: 1.5, windowMs: 5_400_000 });
  });

  it("refuses a bad value with a sentence naming the variable", () => {
    expect(() => parseSavingsConfig({ SAVINGS_RADIUS_MILES: "ten" })).toThrow(
      'SAVINGS_RADIUS_MILES must be a number from 0.1 to 100; "ten" is not',
    );
    expect(() => parseSavingsConfig({ CATALOG_REFRESH_HOURS: "0" })).toThrow(/CATALOG_REFRESH_HOURS/);
    expect(() => parseSavingsConfig({ PRICE_WINDOW_HOURS: "200" })).toThrow(
      'PRICE_WINDOW_HOURS must be a number from 0 to 168; "200" is not',
    );
  });
});
