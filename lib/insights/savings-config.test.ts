import { describe, expect, it } from "vitest";

import { parseSavingsConfig } from "./savings-config";

describe("parseSavingsConfig", () => {
  it("defaults to 10 miles and 6 hours, and reads set values", () => {
    expect(parseSavingsConfig({})).toEqual({ radiusMiles: 10, catalogRefreshMs: 6 * 3_600_000 });
    expect(parseSavingsConfig({ SAVINGS_RADIUS_MILES: "2.5", CATALOG_REFRESH_HOURS: "24" })).toEqual({
      radiusMiles: 2.5,
      catalogRefreshMs: 24 * 3_600_000,
    });
  });

  it("refuses a bad value with a sentence naming the variable", () => {
    expect(() => parseSavingsConfig({ SAVINGS_RADIUS_MILES: "ten" })).toThrow(
      'SAVINGS_RADIUS_MILES must be a number from 0.1 to 100; "ten" is not',
    );
    expect(() => parseSavingsConfig({ CATALOG_REFRESH_HOURS: "0" })).toThrow(/CATALOG_REFRESH_HOURS/);
  });
});
