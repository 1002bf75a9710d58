import { describe, expect, it } from "vitest";

import { RecentIds } from "./recent-ids";

describe("RecentIds", () => {
  it("remembers the last `capacity` ids and forgets the oldest first", () => {
    const recent = new RecentIds(3);
    for (const id of ["a", "b", "c", "d"]) recent.add(id);
    expect(recent.size).toBe(3);
    expect(recent.has("a")).toBe(false);
    expect(["b", "c", "d"].every((id) => recent.has(id))).toBe(true);
  });

  it("never holds more than its capacity, however many ids pass through", () => {
    const recent = new RecentIds(400);
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      recent.add(`id-${String(i)}`);
      largest = Math.max(largest, recent.size);
    }
    expect(largest).toBe(400);
    expect(recent.has("id-99999")).toBe(true);
    expect(recent.has("id-99600")).toBe(true);
    expect(recent.has("id-99599")).toBe(false);
  });

  it("does not count an id twice or make it newer when it is added again", () => {
    const recent = new RecentIds(2);
    recent.add("a");
    recent.add("b");
    recent.add("a");
    recent.add("c");
    expect(recent.has("a")).toBe(false);
    expect(recent.has("b")).toBe(true);
    expect(recent.size).toBe(2);
  });

  it("grows, and never shrinks, its capacity", () => {
    const recent = new RecentIds(2);
    recent.growTo(4);
    for (const id of ["a", "b", "c", "d"]) recent.add(id);
    expect(recent.size).toBe(4);
    recent.growTo(1);
    expect(recent.capacity).toBe(4);
    expect(recent.has("a")).toBe(true);
  });

  it("refuses a capacity that is not a whole number ≥ 1", () => {
    expect(() => new RecentIds(0)).toThrow(RangeError);
    expect(() => new RecentIds(1.5)).toThrow(RangeError);
    expect(() => {
      new RecentIds(2).growTo(Number.NaN);
    }).toThrow(RangeError);
  });
});
