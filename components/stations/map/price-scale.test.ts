import { describe, expect, it } from "vitest";

import { buildPriceScale, PRICE_CLASS_COUNT } from "./price-scale";

const range = (n: number, from = 3, step = 0.01) =>
  Array.from({ length: n }, (_, i) => Math.round((from + i * step) * 1000) / 1000);

describe("buildPriceScale", () => {
  it("splits distinct prices into 7 quantile classes of (nearly) equal size, cheapest first", () => {
    const prices = range(70);
    const scale = buildPriceScale(prices);
    expect(scale.classes).toHaveLength(PRICE_CLASS_COUNT);
    expect(scale.classes.map((c) => c.count)).toEqual([10, 10, 10, 10, 10, 10, 10]);
    expect(scale.classes[0]?.min).toBe(3);
    expect(scale.classes[6]?.max).toBe(3.69);
    for (let i = 1; i < scale.classes.length; i++)
      expect(scale.classes[i]?.min).toBeGreaterThan(scale.classes[i - 1]?.max ?? Infinity);
    expect(scale.classOf(3)).toBe(0);
    expect(scale.classOf(3.69)).toBe(6);
    expect(scale.classOf(3.35)).toBe(3);
    // Every price falls in the class whose printed range holds it.
    for (const p of prices) {
      const c = scale.classes[scale.classOf(p)];
      expect(c && p >= c.min && p <= c.max).toBe(true);
    }
  });

  it("gives every class its own palette colour and a printed label", () => {
    const scale = buildPriceScale(range(70));
    expect(new Set(scale.classes.map((c) => c.color)).size).toBe(7);
    expect(scale.classes.map((c) => c.label)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });

  it("keeps tied prices in one class and drops classes that ties would leave empty", () => {
    const prices = [3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.6, 3.7];
    const scale = buildPriceScale(prices);
    const classOf35 = scale.classOf(3.5);
    expect(prices.filter((p) => p === 3.5).every((p) => scale.classOf(p) === classOf35)).toBe(true);
    expect(scale.classes.every((c) => c.count > 0)).toBe(true);
    expect(scale.classes.reduce((sum, c) => sum + c.count, 0)).toBe(prices.length);
    expect(scale.classes[0]?.min).toBe(3.5);
  });

  it("makes one class for one station", () => {
    const scale = buildPriceScale([3.899]);
    expect(scale.classes).toEqual([expect.objectContaining({ index: 0, min: 3.899, max: 3.899, count: 1 })]);
    expect(scale.classOf(3.899)).toBe(0);
  });

  it("makes one class when every station has the same price", () => {
    const scale = buildPriceScale(Array.from({ length: 500 }, () => 4.129));
    expect(scale.classes).toHaveLength(1);
    expect(scale.classes[0]).toMatchObject({ min: 4.129, max: 4.129, count: 500 });
    expect(scale.classOf(4.129)).toBe(0);
  });

  it("ignores stations without a price, and has no class for none", () => {
    expect(buildPriceScale([]).classes).toEqual([]);
    expect(buildPriceScale([null, null]).classes).toEqual([]);
    const scale = buildPriceScale([null, 3.1, 3.2]);
    expect(scale.classes.reduce((sum, c) => sum + c.count, 0)).toBe(2);
    expect(scale.classOf(null)).toBe(-1);
  });

  it("with fewer distinct prices than classes, makes one class per price", () => {
    const scale = buildPriceScale([3.1, 3.2, 3.3, 3.1, 3.2, 3.3]);
    expect(scale.classes.map((c) => [c.min, c.max, c.count])).toEqual([
      [3.1, 3.1, 2],
      [3.2, 3.2, 2],
      [3.3, 3.3, 2],
    ]);
  });
});
