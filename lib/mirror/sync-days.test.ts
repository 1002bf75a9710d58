import { describe, expect, it } from "vitest";

import { addDays, daysBetween, dayStartMs, maxOf, minOf, utcDay } from "./sync-days";

describe("sync days", () => {
  it("names the UTC day of an instant and steps over month, year and leap-day ends", () => {
    expect(utcDay(Date.parse("2026-03-08T23:59:59.999Z"))).toBe("2026-03-08");
    expect(utcDay(dayStartMs("2026-03-09"))).toBe("2026-03-09");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(daysBetween("2026-01-30", "2026-03-02")).toBe(31);
    expect(daysBetween("2026-03-02", "2026-03-02")).toBe(0);
  });

  it("takes the max and min of nullable instants, null meaning unknown", () => {
    expect(maxOf(null, null)).toBeNull();
    expect(maxOf(null, 5)).toBe(5);
    expect(maxOf(7, 5)).toBe(7);
    expect(minOf(7, null)).toBe(7);
    expect(minOf(7, 5)).toBe(5);
  });
});
