import { describe, expect, it } from "vitest";

import { drawOrder, projectToUnit } from "./station-canvas-draw";

describe("the station canvas's drawing pieces", () => {
  it("projects to Web Mercator at zoom 0 in [0, 1]", () => {
    const { x, y } = projectToUnit(new Float64Array([0, 85.0511287798, 90]), new Float64Array([0, 180, -180]));
    expect(x[0]).toBeCloseTo(0.5);
    expect(y[0]).toBeCloseTo(0.5);
    expect(x[1]).toBeCloseTo(1);
    expect(y[1]).toBeCloseTo(0);
    // Past Mercator's limit the latitude is clamped, not infinite.
    expect(y[2]).toBeCloseTo(0);
    expect(x[2]).toBeCloseTo(0);
  });

  it("draws unpriced stations first, then the priciest class down to the cheapest (stable within a class)", () => {
    const order = drawOrder(new Int8Array([0, 2, -1, 1, 0, 2]), 3);
    expect([...order]).toEqual([2, 1, 5, 3, 0, 4]);
  });
});
