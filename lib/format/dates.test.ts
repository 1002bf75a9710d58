import { describe, expect, it } from "vitest";
import { describeAge, describeOffset, formatDateTime, formatDay, formatLongDay, formatZoneName } from "./dates";

describe("date formats", () => {
  it("formats UTC calendar days", () => {
    expect(formatDay("2026-03-04")).toBe("Mar 4");
    expect(formatLongDay("2026-03-04")).toBe("Wed, Mar 4, 2026");
  });

  // ICU puts a narrow no-break space (U+202F) before AM/PM.
  it("labels an instant with its zone, and adds the year only when it is not the current one", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    expect(formatDateTime("2026-11-24T22:05:00Z", "America/Los_Angeles", now)).toBe("Nov 24, 2:05\u202fPM PST");
    expect(formatDateTime("2025-11-24T22:05:00Z", "America/Los_Angeles", now)).toBe("Nov 24, 2025, 2:05\u202fPM PST");
    expect(formatDateTime("2026-05-15T21:30:00Z", "Asia/Tokyo", now)).toBe("May 16, 6:30\u202fAM UTC+9");
  });

  it("describes a zone's offset at an instant, daylight saving included", () => {
    expect(describeOffset("2026-05-15T21:30:00Z", "America/Los_Angeles")).toBe(
      "America/Los_Angeles, UTC−07:00 (2026-05-15 21:30 UTC)",
    );
    expect(describeOffset("2026-01-15T21:30:00Z", "UTC")).toBe("UTC, UTC (2026-01-15 21:30 UTC)");
  });

  it("names a zone with its offset now", () => {
    expect(formatZoneName("UTC")).toBe("UTC");
    expect(formatZoneName("America/Los_Angeles", new Date("2026-01-15T00:00:00Z"))).toBe(
      "America/Los Angeles (UTC−08:00)",
    );
  });

  it("says how old a stamp is", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(describeAge("2026-11-24T11:59:30Z", now)).toBe("just now");
    expect(describeAge(now - 12 * 60_000, now)).toBe("12 min ago");
    expect(describeAge(now - 5 * 3_600_000, now)).toBe("5 h ago");
    expect(describeAge(now - 86_400_000, now)).toBe("1 day ago");
    expect(describeAge(now - 3 * 86_400_000, now)).toBe("3 days ago");
    expect(describeAge(now + 60_000, now)).toBe("just now");
  });
});
