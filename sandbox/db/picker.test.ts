import { describe, expect, it } from "vitest";

import { Picker } from "./picker";
import { createRng, type Rng } from "./rng";

/** An Rng whose next() returns the given values in turn (only next() is used by the picker). */
const fixed = (...values: number[]): Rng => {
  const rng = createRng(1);
  let i = 0;
  rng.next = () => values[i++] ?? 0;
  return rng;
};

describe("Picker", () => {
  it("maps one draw onto the cumulative weights, skipping non-positive weights", () => {
    const picker = new Picker([
      ["a", 1],
      ["none", 0],
      ["b", 3],
    ] as const);
    expect(picker.size).toBe(2);
    // Cumulative table [1, 4]: draws below 1/4 pick a, the rest b.
    expect(picker.pick(fixed(0))).toBe("a");
    expect(picker.pick(fixed(0.24))).toBe("a");
    expect(picker.pick(fixed(0.25))).toBe("b");
    expect(picker.pick(fixed(0.99))).toBe("b");
  });

  it("follows the weights over many draws", () => {
    const picker = new Picker([
      ["x", 1],
      ["y", 9],
    ] as const);
    const rng = createRng(7);
    const ys = Array.from({ length: 10_000 }, () => picker.pick(rng)).filter((v) => v === "y").length;
    expect(ys / 10_000).toBeGreaterThan(0.88);
    expect(ys / 10_000).toBeLessThan(0.92);
  });

  it("refuses to pick from an empty table", () => {
    expect(() => new Picker<string>([]).pick(fixed(0.5))).toThrow("Picker is empty");
  });
});
