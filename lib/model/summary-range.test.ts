import { describe, expect, it } from "vitest";

import { daysInRange, MAX_SUMMARY_DAYS, summaryRangeProblem } from "./summary-range";

describe("the summary's range rule", () => {
  it("counts both ends", () => {
    expect(daysInRange("2026-05-01", "2026-05-01")).toBe(1);
    expect(daysInRange("2026-01-01", "2026-12-31")).toBe(365);
  });

  it("allows a leap year of days and refuses one day more, naming the parameters", () => {
    expect(MAX_SUMMARY_DAYS).toBe(366);
    expect(summaryRangeProblem("2024-01-01", "2024-12-31")).toBeNull();
    expect(summaryRangeProblem("2024-01-01", "2025-01-01")).toBe(
      "The range from 2024-01-01 to 2025-01-01 is longer than 366 days; ask for a shorter one (from, to)",
    );
  });
});
