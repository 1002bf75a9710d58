import { describe, expect, it } from "vitest";

import { axisScale, fittingLabelIndexes, ticks } from "./chart-scale";

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

  it("labels every day that fits, counting back from the last one, which is always labelled", () => {
    // 30 days in 600 px: 20 px a day; a label needing 50 px takes three days' room.
    expect(fittingLabelIndexes(30, 20, 50)).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29]);
    expect(fittingLabelIndexes(3, 100, 50)).toEqual([0, 1, 2]);
    expect(fittingLabelIndexes(30, 20, 40)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29]);
    expect(fittingLabelIndexes(0, 20, 50)).toEqual([]);
    // No room at all: the last day alone.
    expect(fittingLabelIndexes(5, 0, 50)).toEqual([4]);
  });

  it("never puts two labels closer than they need, at any width", () => {
    for (let slot = 1; slot <= 120; slot += 0.5) {
      const indexes = fittingLabelIndexes(92, slot, 55);
      for (let i = 1; i < indexes.length; i += 1)
        expect(((indexes[i] ?? 0) - (indexes[i - 1] ?? 0)) * slot).toBeGreaterThanOrEqual(55 - 1e-6);
      expect(indexes.at(-1)).toBe(91);
    }
  });
});
