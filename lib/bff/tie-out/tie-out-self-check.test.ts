import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { tieOutStackFor } from "@/test/tie-out-stack";

import { type Figure, mismatchesOf, type Pair } from "./figures";
import { tieOutPairs } from "./property";

// The tie-out checks itself: its comparison catches a cent, a thousandth of a gallon and one purchase (and not a
// difference of notation), and a deliberate off-by-one day — the totals bar's period moved by a day while every other
// source keeps the case's — makes each family of pairs fail, in both profiles (SQLite; the PostgreSQL run shares the
// code). Without this, a tie-out that compared nothing, or compared a source with itself, would pass.

const pairOf = (left: Figure, right: Figure): Pair => ({
  why: "a figure",
  left: { source: "one page", figure: left },
  right: { source: "another", figure: right },
});

describe("the tie-out's comparison", () => {
  it("agrees on the same decimals written differently", () => {
    expect(
      mismatchesOf([
        pairOf({ count: 2, gallons: "12.5", amount: "40" }, { count: 2, gallons: "12.500", amount: "40.00" }),
      ]),
    ).toEqual([]);
  });

  it("names a cent, a thousandth of a gallon and one purchase, with both sides' numbers", () => {
    const base: Figure = { count: 2, gallons: "12.500", amount: "40.00" };
    const found = mismatchesOf([
      pairOf(base, { ...base, amount: "40.01" }),
      pairOf(base, { ...base, gallons: "12.501" }),
      pairOf(base, { ...base, count: 3 }),
    ]);
    expect(found).toHaveLength(3);
    expect(found[0]).toBe("a figure: one page says 2 / 12.500 gal / $40.00, another says 2 / 12.500 gal / $40.01");
  });
});

/** A completed purchase whose local date is its UTC date (so one day is the same day on both bases). */
function completedOnOneDay(all: readonly Transaction[]): string {
  const t = all.find((x) => {
    const utc = new Date(x.at).toISOString().slice(0, 10);
    const local = new Date(Date.parse(x.at) + (x.localOffsetMinutes ?? 0) * 60_000).toISOString().slice(0, 10);
    return x.status === "completed" && local === utc;
  });
  if (t === undefined) throw new Error("the fleet has no completed purchase to pin a day on");
  return new Date(t.at).toISOString().slice(0, 10);
}

describe.each(["primary", "alternative"] as const)("an off-by-one day fails the tie-out (%s profile)", (profile) => {
  const stack = tieOutStackFor(profile, "sqlite");

  it.each([1, -1])("the totals bar's period moved by %i day fails every family of pairs", async (shift) => {
    const day = completedOnOneDay(stack().all);
    const c = { from: day, to: day, tz: "UTC", filter: {} };
    // Unshifted, the same case ties out: the failure below is the shift's alone.
    expect(mismatchesOf(await tieOutPairs(stack(), c))).toEqual([]);
    const found = mismatchesOf(await tieOutPairs(stack(), c, { shiftListDays: shift }));
    for (const family of [
      "spend on UTC days:",
      "spend of the filter",
      "spend on purchase-local dates:",
      "completed purchases on purchase-local dates:",
    ])
      expect(
        found.some((m) => m.startsWith(family)),
        `no mismatch of "${family}" in ${JSON.stringify(found)}`,
      ).toBe(true);
  });
});
