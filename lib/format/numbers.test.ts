import { describe, expect, it } from "vitest";

import { formatCount, formatCountOf, formatGallons, formatMoney, formatPriceRange, formatUnitPrice } from "./numbers";

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
});
