import { describe, expect, it } from "vitest";
import { averagePricePerGallon } from "./average-price";

describe("averagePricePerGallon", () => {
  it.each([
    ["100.00", "25.000", "4.000"],
    ["10.00", "3.000", "3.333"],
    ["20.00", "3.000", "6.667"],
    // 0.0005 exactly: half rounds away from zero.
    ["0.01", "20.000", "0.001"],
    ["0.01", "20.001", "0.000"],
    ["123456789.99", "31415926.535", "3.930"],
    ["-10.00", "3.000", "-3.333"],
    ["0.00", "5.000", "0.000"],
  ])("%s / %s gal = %s", (amount, gallons, expected) => {
    expect(averagePricePerGallon(amount, gallons)).toBe(expected);
  });

  it("is null without gallons", () => {
    expect(averagePricePerGallon("10.00", "0.000")).toBeNull();
  });

  it("stays exact past 2^53 minor units", () => {
    expect(averagePricePerGallon("98765432109876.54", "25000000000000.000")).toBe("3.951");
  });
});
