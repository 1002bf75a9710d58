import { describe, expect, it } from "vitest";
import { averagePricePerGallon, toMinorUnits } from "./decimal-math";

// The one rule for an average price per gallon: the BFF's summary, the mirror, the overview's 30-day totals and a
// station's fleet purchases all use it (the overview had its own copy until issue 14).
const average = (amount: string, gallons: string) =>
  averagePricePerGallon(toMinorUnits(amount, 2), toMinorUnits(gallons, 3));

describe("averagePricePerGallon", () => {
  it.each([
    ["100.00", "25.000", "4.000"],
    ["10.00", "3.000", "3.333"],
    ["20.00", "3.000", "6.667"],
    // 0.0005 exactly: half rounds up.
    ["0.01", "20.000", "0.001"],
    ["0.01", "20.001", "0.000"],
    ["123456789.99", "31415926.535", "3.930"],
    ["0.00", "5.000", "0.000"],
  ])("%s / %s gal = %s", (amount, gallons, expected) => {
    expect(average(amount, gallons)).toBe(expected);
  });

  it("is null without gallons", () => {
    expect(average("10.00", "0.000")).toBeNull();
  });

  it("stays exact past 2^53 minor units", () => {
    expect(average("98765432109876.54", "25000000000000.000")).toBe("3.951");
  });
});
