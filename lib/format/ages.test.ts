import { describe, expect, it } from "vitest";

import { describeRecentAge, describeTimeLeft, formatMonthYear } from "./ages";

describe("describeRecentAge", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");
  it("counts seconds under a minute, then as describeAge", () => {
    expect(describeRecentAge(now - 2_000, now)).toBe("just now");
    expect(describeRecentAge("2026-11-24T11:59:48Z", now)).toBe("12 s ago");
    expect(describeRecentAge(now - 59_999, now)).toBe("59 s ago");
    expect(describeRecentAge(now - 3 * 60_000, now)).toBe("3 min ago");
    expect(describeRecentAge(now + 10_000, now)).toBe("just now");
  });
});

describe("describeTimeLeft", () => {
  it("rounds as a person says it", () => {
    expect(describeTimeLeft(20_000)).toBe("less than a minute");
    expect(describeTimeLeft(170_000)).toBe("about 3 min");
    expect(describeTimeLeft(2 * 3_600_000 + 10 * 60_000)).toBe("about 2 h 10 min");
    expect(describeTimeLeft(2 * 3_600_000 + 20_000)).toBe("about 2 h");
    expect(describeTimeLeft(2 * 3_600_000 + 59 * 60_000 + 50_000)).toBe("about 3 h");
  });
});

describe("formatMonthYear", () => {
  it("names the UTC month", () => {
    expect(formatMonthYear("2025-03-04T10:00:00Z")).toBe("Mar 2025");
    expect(formatMonthYear("2025-03-31T23:30:00-05:00")).toBe("Apr 2025");
  });
});
