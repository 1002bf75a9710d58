import { describe, expect, it } from "vitest";

import { axisScale, labelIndexes, ticks } from "./chart-scale";

describe("axisScale", () => {
  it.each([
    [0, 1, 1, 1],
    [0.4, 0.4, 0.1, 4],
    [1, 1, 0.25, 4],
    [18356.48, 20000, 5000, 4],
    [21000, 30000, 10000, 3],
    [4712.406, 6000, 2000, 3],
    [5000, 6000, 2000, 3],
    [10000, 10000, 2500, 4],
  ])("%f → max %f, step %f, %i steps", (value, max, step, count) => {
    const scale = axisScale(value, 4);
    expect(scale.max).toBeCloseTo(max, 9);
    expect(scale.step).toBeCloseTo(step, 9);
    expect(scale.count).toBe(count);
    expect(scale.max).toBeGreaterThanOrEqual(value);
  });
});

describe("ticks and labels", () => {
  it("spaces ticks evenly", () => {
    expect(ticks({ max: 100, step: 25, count: 4 })).toEqual([0, 25, 50, 75, 100]);
  });

  it("always labels the last day", () => {
    expect(labelIndexes(30, 6)).toEqual([4, 9, 14, 19, 24, 29]);
    expect(labelIndexes(3, 6)).toEqual([0, 1, 2]);
    expect(labelIndexes(0, 6)).toEqual([]);
  });
});
