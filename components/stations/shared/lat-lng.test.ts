import { describe, expect, it } from "vitest";

import { formatLatLng, parseLatLng, pointLabel } from "./lat-lng";

describe("coordinates on the stations page", () => {
  it("labels a point without a place name in one way (the link's form with a space)", () => {
    const point = { lat: 35.222, lng: -101.8313 };
    expect(pointLabel(point)).toBe("35.2220, -101.8313");
    expect(formatLatLng(point)).toBe("35.2220,-101.8313");
    expect(parseLatLng(pointLabel(point))).toEqual(point);
  });
});
