import { describe, expect, it } from "vitest";

import {
  addDays,
  dayInZone,
  isIsoDay,
  isTimeZone,
  startOfDayInZone,
  zonedDaysToInstants,
  zoneOffsetMinutes,
} from "./time-zones";

describe("time zones", () => {
  it("knows IANA zones and refuses anything else", () => {
    expect(isTimeZone("America/Los_Angeles")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("reads real calendar days only", () => {
    expect(isIsoDay("2026-02-28")).toBe(true);
    expect(isIsoDay("2026-02-29")).toBe(false);
    // Years below 100 are real days too (Date.UTC would read 0001 as 1901).
    expect(isIsoDay("0001-01-01")).toBe(true);
    expect(isIsoDay("0099-02-29")).toBe(false);
    expect(isIsoDay("2026-13-01")).toBe(false);
    expect(isIsoDay("tomorrow")).toBe(false);
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("gives offsets with daylight saving", () => {
    expect(zoneOffsetMinutes(Date.parse("2026-01-15T12:00:00Z"), "America/Los_Angeles")).toBe(-480);
    expect(zoneOffsetMinutes(Date.parse("2026-07-15T12:00:00Z"), "America/Los_Angeles")).toBe(-420);
    expect(zoneOffsetMinutes(Date.parse("2026-07-15T12:00:00Z"), "Asia/Tokyo")).toBe(540);
    expect(zoneOffsetMinutes(Date.parse("2026-07-15T12:00:00Z"), "Asia/Kolkata")).toBe(330);
  });

  it("turns a zone's days into exact instants, both ends inclusive", () => {
    expect(zonedDaysToInstants("2026-11-24", "2026-11-24", "America/Los_Angeles")).toEqual({
      from: "2026-11-24T08:00:00.000Z",
      to: "2026-11-25T07:59:59.999Z",
    });
    expect(zonedDaysToInstants("2026-11-24", undefined, "Asia/Tokyo")).toEqual({ from: "2026-11-23T15:00:00.000Z" });
    expect(zonedDaysToInstants(undefined, "2026-07-01", "UTC")).toEqual({ to: "2026-07-01T23:59:59.999Z" });
    // The day daylight saving starts in Los Angeles has 23 hours.
    expect(zonedDaysToInstants("2026-03-08", "2026-03-08", "America/Los_Angeles")).toEqual({
      from: "2026-03-08T08:00:00.000Z",
      to: "2026-03-09T06:59:59.999Z",
    });
  });

  it("starts a day at the jump when midnight does not exist (Santiago's spring change)", () => {
    // Chile moved clocks from 00:00 to 01:00 on 2025-09-07.
    const start = startOfDayInZone("2025-09-07", "America/Santiago");
    expect(dayInZone(start, "America/Santiago")).toBe("2025-09-07");
    expect(dayInZone(start - 60_000, "America/Santiago")).toBe("2025-09-06");
  });
});
