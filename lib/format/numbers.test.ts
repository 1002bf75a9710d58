import { describe, expect, it } from "vitest";

import {
  formatCompactMoney,
  formatCompactNumber,
  formatCoordinates,
  formatCount,
  formatCountOf,
  formatDecimal,
  formatDollars,
  formatDollarsPerGallon,
  formatGallons,
  formatMoney,
  formatPriceRange,
  formatUnitPrice,
} from "./numbers";

describe("number formats", () => {
  it("formats counts, money, unit prices and gallons in en-US", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCountOf(1, "fill", "fills")).toBe("1 fill");
    expect(formatCountOf(0, "fill", "fills")).toBe("0 fills");
    expect(formatCountOf(1234, "fill", "fills")).toBe("1,234 fills");
    expect(formatMoney("1234.50")).toBe("$1,234.50");
    expect(formatMoney("-12.00")).toBe("-$12.00");
    expect(formatUnitPrice("3.899")).toBe("$3.899");
    expect(formatGallons("1234.567")).toBe("1,234.567");
  });

  it("formats exact decimal strings without float rounding", () => {
    // As a double, 1234567.895 is 1234567.89499999…: a float on the way would round it down.
    expect(formatMoney("1234567.895")).toBe("$1,234,567.90");
    expect(formatMoney("98765432109876.54")).toBe("$98,765,432,109,876.54");
  });

  it("refuses what is not a decimal", () => {
    expect(() => formatMoney("12,00")).toThrow(RangeError);
    expect(() => formatGallons("")).toThrow(RangeError);
  });

  it("formats a price range, or one price when both ends agree", () => {
    expect(formatPriceRange(3.459, 3.519)).toBe("$3.459–$3.519");
    expect(formatPriceRange(3.5, 3.5)).toBe("$3.500");
  });

  // Issue 27: the formats the route planner, the stations page, the chart and the exception sentences built for
  // themselves, now one home.
  it("formats computed numbers: tenths, whole miles, a percentage without trailing zeros", () => {
    expect(formatDecimal(1092.44, 1)).toBe("1,092.4");
    expect(formatDecimal(3, 1)).toBe("3.0");
    expect(formatDecimal(-0, 1)).toBe("0.0");
    expect(formatDecimal(1234.6, 0)).toBe("1,235");
    expect(formatDecimal(12.46, 1, 0)).toBe("12.5");
    expect(formatDecimal(40, 1, 0)).toBe("40");
  });

  it("formats dollars computed as numbers: money to the cent, prices per gallon to the tenth of a cent", () => {
    expect(formatDollars(1234.5)).toBe("$1,234.50");
    expect(formatDollars(-0.004)).toBe("$0.00");
    expect(formatDollars(-12)).toBe("-$12.00");
    expect(formatDollars(0.005)).toBe("$0.01");
    expect(formatDollarsPerGallon(3.4591)).toBe("$3.459");
    expect(formatDollarsPerGallon(3.5)).toBe("$3.500");
  });

  it("formats a point as the page shows it (four decimals, no grouping)", () => {
    expect(formatCoordinates({ lat: 35.222, lng: -101.8313 })).toBe("35.2220, -101.8313");
    expect(formatCoordinates({ lat: -0, lng: 100 })).toBe("0.0000, 100.0000");
  });

  it("formats a chart axis compactly", () => {
    expect(formatCompactMoney(5000)).toBe("$5K");
    expect(formatCompactMoney(1_250_000)).toBe("$1.3M");
    expect(formatCompactMoney(0)).toBe("$0");
    expect(formatCompactNumber(1200)).toBe("1.2K");
    expect(formatCompactNumber(850)).toBe("850");
  });
});
