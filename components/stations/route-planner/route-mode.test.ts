import { describe, expect, it } from "vitest";

import { routePointMarks } from "./route-mode";

describe("the route's points on the map", () => {
  it("are lettered in route order and named start, via or end, by label or by coordinates", () => {
    const points = [
      { lat: 32.7767, lng: -96.797 },
      { lat: 35.222, lng: -101.8313 },
      { lat: 39.7392, lng: -104.9903 },
    ];
    expect(routePointMarks(points, ["Dallas, TX", "", "Denver, CO"]).map((m) => [m.letter, m.title])).toEqual([
      ["A", "Start A: Dallas, TX"],
      ["B", "Via B: 35.2220, -101.8313"],
      ["C", "End C: Denver, CO"],
    ]);
  });
});
