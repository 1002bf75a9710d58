import { describe, expect, it } from "vitest";

import { humanize, renderValue } from "./station-detail-parts";

describe("the station detail's extra fields", () => {
  it("turns field names into labels", () => {
    expect(humanize("tire_service")).toBe("Tire service");
    expect(humanize("truckParking")).toBe("Truck parking");
  });

  it("prints values as text, a missing one as null (read as 'Not provided')", () => {
    expect(renderValue("")).toBeNull();
    expect(renderValue(null)).toBeNull();
    expect(renderValue(true)).toBe("Yes");
    expect(renderValue(12)).toBe("12");
  });
});
