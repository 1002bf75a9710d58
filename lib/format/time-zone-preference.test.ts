import { describe, expect, it } from "vitest";

import { commonTimeZones, otherTimeZones } from "./time-zone-preference";

describe("commonTimeZones", () => {
  it("leaves the browser's zone out while it is unknown (server, hydration), so both renders list the same zones", () => {
    expect(commonTimeZones("UTC", null)).toEqual([
      "UTC",
      "America/New_York",
      "America/Chicago",
      "America/Denver",
      "America/Phoenix",
      "America/Los_Angeles",
      "America/Anchorage",
      "Pacific/Honolulu",
    ]);
  });

  it("puts the browser's zone first, then the zone shown, each once", () => {
    const zones = commonTimeZones("Asia/Tokyo", "Europe/Berlin");
    expect(zones.slice(0, 3)).toEqual(["Europe/Berlin", "Asia/Tokyo", "UTC"]);
    expect(new Set(zones).size).toBe(zones.length);
    expect(commonTimeZones("America/Chicago", "America/Chicago").filter((z) => z === "America/Chicago")).toHaveLength(
      1,
    );
  });
});

describe("otherTimeZones", () => {
  it("lists every other zone the runtime knows, none of the common ones", () => {
    const common = commonTimeZones("UTC", "Europe/Berlin");
    const other = otherTimeZones(common);
    expect(other.length).toBeGreaterThan(300);
    expect(other).toContain("Asia/Tokyo");
    for (const zone of common) expect(other).not.toContain(zone);
  });
});
