import { describe, expect, it } from "vitest";

import { BUCKET_SEC, DAY_SEC, seekDay, sumOf } from "./day-counts";

// Newest first: day 12 holds 3 rows, day 10 holds 5, day 7 holds 2.
const DAYS = [
  { day: 12, n: 3 },
  { day: 10, n: 5 },
  { day: 7, n: 2 },
];

describe("seekDay", () => {
  it("skips the whole days newer than the one holding the offset and stops at that day's last second", () => {
    expect(seekDay(DAYS, 0, Number.MAX_SAFE_INTEGER)).toEqual({ skipped: 0, upper: 13 * DAY_SEC - 1 });
    expect(seekDay(DAYS, 3, Number.MAX_SAFE_INTEGER)).toEqual({ skipped: 3, upper: 11 * DAY_SEC - 1 });
    expect(seekDay(DAYS, 8, Number.MAX_SAFE_INTEGER)).toEqual({ skipped: 8, upper: 8 * DAY_SEC - 1 });
  });

  it("keeps a tighter upper bound and skips everything past the end", () => {
    expect(seekDay(DAYS, 0, 12 * DAY_SEC + 5)).toEqual({ skipped: 0, upper: 12 * DAY_SEC + 5 });
    expect(seekDay(DAYS, 10, 99)).toEqual({ skipped: 10, upper: 99 });
  });

  it("works on longer periods", () => {
    expect(seekDay([{ day: 2, n: 4 }], 1, Number.MAX_SAFE_INTEGER, BUCKET_SEC)).toEqual({
      skipped: 0,
      upper: 3 * BUCKET_SEC - 1,
    });
  });
});

describe("sumOf", () => {
  it("adds the counts", () => {
    expect(sumOf(DAYS)).toBe(10);
    expect(sumOf([])).toBe(0);
  });
});
