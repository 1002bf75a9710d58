import { describe, expect, it } from "vitest";

import { contextOf } from "./describe";
import { defWithoutDiesel, failedThenOtherCard } from "./rules-pairs";
import { largeFill, unusualProduct } from "./rules-usual";
import { historyOf, input, MINUTE, purchase, TUESDAY_NOON } from "./test-purchases";

/**
 * The review of issue 16 (items 4 and 5, and the smaller findings): the rules judge products with the one classifier
 * of lib/model/product-classes (other spellings and cases than "diesel"), a hit's context runs from its earliest local
 * date to its latest, money is integers, and a failed attempt is one finding.
 */

describe("the rules judge products by class (review 4)", () => {
  it("does not call DEF on a 'Diesel' or 'ULSD #2' purchase, or next to the truck's 'Diesel' fill, DEF without diesel", () => {
    const onDiesel = purchase({ product: "Diesel", defGallonsMilli: 5_000 });
    const onUlsd = purchase({ product: "ULSD #2", defGallonsMilli: 5_000 });
    expect(defWithoutDiesel(input([onDiesel])).hits).toEqual([]);
    expect(defWithoutDiesel(input([onUlsd])).hits).toEqual([]);
    const defAlone = purchase({ product: "DEF", gallonsMilli: 5_000, atMs: TUESDAY_NOON + 10 * MINUTE });
    expect(defWithoutDiesel(input([purchase({ product: "Diesel" }), defAlone])).hits).toEqual([]);
  });

  it("reads 'Diesel Exhaust Fluid' and 'AdBlue' as DEF bought on its own, and says so without a fuel", () => {
    for (const product of ["Diesel Exhaust Fluid", "AdBlue"]) {
      const [hit] = defWithoutDiesel(input([purchase({ product, gallonsMilli: 5_000 })])).hits;
      expect(hit?.sentence()).toMatch(/^5\.0 gal of DEF bought for truck T-100 by Ada Lovelace \(/);
    }
  });

  it("does not call 'ULSD' or 'Diesel' unusual in a truck of 'diesel' fills; flags 'Unleaded 87'; leaves DEF alone", () => {
    const history = historyOf(50, [100_000]);
    for (const product of ["ULSD", "Diesel", "ULSD #2"])
      expect(unusualProduct(input([purchase({ product })], { history })).hits).toEqual([]);
    expect(unusualProduct(input([purchase({ product: "DEF", gallonsMilli: 5_000 })], { history }))).toEqual({
      hits: [],
      notJudged: null,
    });
    const [hit] = unusualProduct(input([purchase({ product: "Unleaded 87" })], { history })).hits;
    expect(hit?.sentence()).toMatch(
      /^100\.0 gal of Unleaded 87 for truck T-100 .*were 100 % diesel \(unleaded: 0 %\)\.$/,
    );
  });

  it("compares a 'ULSD' fill with the truck's 'Diesel' fills for a large fill", () => {
    const history = historyOf(20, [100_000], { product: "Diesel" });
    const [hit] = largeFill(input([purchase({ product: "ULSD", gallonsMilli: 150_001 })], { history })).hits;
    expect(hit?.sentence()).toContain("over 20 earlier fills");
  });
});

describe("a hit's context (review 5)", () => {
  it("runs from the earliest local date to the latest, not from the first purchase in time to the last", () => {
    // 04:30 UTC at +00:00 is 2026-11-18; 04:50 UTC at −05:00, later in time, is 23:50 on 2026-11-17.
    const first = purchase({ atMs: Date.UTC(2026, 10, 18, 4, 30), offsetMin: 0 });
    const later = purchase({ atMs: Date.UTC(2026, 10, 18, 4, 50), offsetMin: -300 });
    expect(contextOf([first, later], { driver: "dr-1" }, "x")).toMatchObject({ from: "2026-11-17", to: "2026-11-18" });
    const failed = { ...first, status: "failed" as const, cardLast4: "1111" };
    const [hit] = failedThenOtherCard(input([failed, later])).hits;
    expect(hit?.context).toMatchObject({ from: "2026-11-17", to: "2026-11-18" });
  });
});

describe("failed attempts, then another card: one finding per failed attempt", () => {
  it("lists the failed attempts once, with the first success after them, not again with the next", () => {
    const failed = purchase({ status: "failed", cardLast4: "1111" });
    const truck = purchase({ atMs: TUESDAY_NOON + 5 * MINUTE });
    const reefer = purchase({ atMs: TUESDAY_NOON + 10 * MINUTE, product: "Reefer diesel" });
    const hits = failedThenOtherCard(input([failed, truck, reefer])).hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]?.transactionIds).toEqual([failed.id, truck.id]);
    const again = purchase({ status: "failed", cardLast4: "1111", atMs: TUESDAY_NOON + 7 * MINUTE });
    expect(failedThenOtherCard(input([failed, truck, again, reefer])).hits.map((h) => h.transactionIds)).toEqual([
      [failed.id, truck.id],
      [again.id, reefer.id],
    ]);
  });
});
