import { describe, expect, it } from "vitest";

import { offHours, rapidFills } from "./rules-frequency";
import { defWithoutDiesel, failedThenOtherCard } from "./rules-pairs";
import { HOUR, input, MINUTE, purchase, TUESDAY_NOON } from "./test-purchases";

describe("rapid fills (3 within 180 min by default)", () => {
  const at = (minutes: number, more = {}) => purchase({ atMs: TUESDAY_NOON + minutes * MINUTE, ...more });

  it("flags three fills on one card whose first and last are exactly the window apart, with the sentence's numbers", () => {
    const { hits } = rapidFills(input([at(0), at(70), at(180)], { thresholds: { rapidFillsWindowMinutes: 180 } }));
    expect(hits).toHaveLength(1);
    expect(hits[0]?.sentence()).toMatch(/^3 fills on card •••• 4480 within 3 h, 300\.0 gal in total/);
    expect(hits[0]?.transactionIds).toHaveLength(3);
  });

  it("does not flag them a minute over the window, nor two fills", () => {
    expect(rapidFills(input([at(0), at(70), at(181)])).hits).toEqual([]);
    expect(rapidFills(input([at(0), at(5)])).hits).toEqual([]);
  });

  it("does not count failed attempts as fills", () => {
    expect(rapidFills(input([at(0), at(10, { status: "failed" }), at(20)])).hits).toEqual([]);
  });

  it("reports a truck's run once when it is a card's run, and a truck's run across cards as the truck's", () => {
    expect(rapidFills(input([at(0), at(10), at(20)])).hits).toHaveLength(1);
    const cards = rapidFills(input([at(0, { cardLast4: "1111" }), at(10, { cardLast4: "2222" }), at(130)])).hits;
    expect(cards.map((h) => h.sentence())).toEqual([
      expect.stringMatching(/^3 fills on truck T-100 within 2 h 10 min/),
    ]);
  });

  it("ignores purchases with no truck for the truck grouping", () => {
    const p = (m: number, c: string) => at(m, { truckId: null, cardLast4: c });
    expect(rapidFills(input([p(0, "1"), p(1, "2"), p(2, "3")])).hits).toEqual([]);
  });
});

describe("off hours (night 22:00–05:00 and weekends, local time of the purchase)", () => {
  const local = (isoLocal: string, offsetMin: number | null) =>
    purchase({ atMs: Date.parse(`${isoLocal}Z`) - (offsetMin ?? 0) * MINUTE, offsetMin });

  it("flags 22:00 and 04:59 local, not 21:59 or 05:00 (Tuesday/Wednesday)", () => {
    const run = (iso: string) => offHours(input([local(iso, -300)])).hits.length;
    expect(run("2026-11-17T21:59")).toBe(0);
    expect(run("2026-11-17T22:00")).toBe(1);
    expect(run("2026-11-18T04:59")).toBe(1);
    expect(run("2026-11-18T05:00")).toBe(0);
  });

  it("judges by the purchase's own offset, not UTC: 03:30 UTC at −05:00 is 22:30 the day before", () => {
    const p = purchase({ atMs: Date.UTC(2026, 10, 18, 3, 30), offsetMin: -300 });
    const [hit] = offHours(input([p])).hits;
    expect(hit?.localDate).toBe("2026-11-17");
    expect(hit?.sentence()).toContain("at night (22:00–05:00): Tuesday 2026-11-17 22:30 local time");
  });

  it("takes the weekend from the local date across midnight: Monday 02:00 UTC at −05:00 is Sunday evening", () => {
    const sundayEvening = purchase({ atMs: Date.UTC(2026, 10, 23, 2), offsetMin: -300 });
    expect(offHours(input([sundayEvening])).hits[0]?.sentence()).toContain("on a weekend: Sunday 2026-11-22 21:00");
    expect(offHours(input([sundayEvening], { thresholds: { weekends: false } })).hits).toEqual([]);
  });

  it("reads a null offset as UTC, and a night window that does not cross midnight", () => {
    expect(offHours(input([local("2026-11-17T01:00", null)])).hits).toHaveLength(1);
    const t = { nightStartHour: 0, nightEndHour: 6 };
    expect(offHours(input([local("2026-11-17T06:00", null)], { thresholds: t })).hits).toEqual([]);
    expect(offHours(input([local("2026-11-17T05:59", null)], { thresholds: t })).hits).toHaveLength(1);
  });
});

describe("DEF without diesel (60 min by default)", () => {
  const def = (more = {}) => purchase({ product: "unleaded", gallonsMilli: 20_000, defGallonsMilli: 5_000, ...more });

  it("flags DEF bought with unleaded and no diesel for the truck near it", () => {
    const [hit] = defWithoutDiesel(input([def()])).hits;
    expect(hit?.sentence()).toMatch(/^5\.0 gal of DEF bought with 20\.0 gal of unleaded for truck T-100/);
  });

  it("does not flag DEF on a diesel purchase, or with the truck's diesel fill exactly 60 min away", () => {
    expect(defWithoutDiesel(input([purchase({ defGallonsMilli: 5_000 })])).hits).toEqual([]);
    const diesel = purchase({ atMs: TUESDAY_NOON + HOUR });
    expect(defWithoutDiesel(input([def(), diesel])).hits).toEqual([]);
    const later = purchase({ atMs: TUESDAY_NOON + HOUR + MINUTE });
    expect(defWithoutDiesel(input([def(), later])).hits).toHaveLength(1);
  });

  it("matches by card when the purchase has no truck, and reads a DEF-only product", () => {
    const only = def({ product: "DEF", gallonsMilli: 7_500, defGallonsMilli: 0, truckId: null });
    expect(defWithoutDiesel(input([only])).hits[0]?.sentence()).toMatch(/^7\.5 gal of DEF bought for card •••• 4480/);
    const diesel = purchase({ truckId: null, atMs: TUESDAY_NOON + 10 * MINUTE });
    expect(defWithoutDiesel(input([only, diesel])).hits).toEqual([]);
  });
});

describe("failed attempts, then another card (30 min by default)", () => {
  const failed = (minutes: number, more = {}) =>
    purchase({ status: "failed", cardLast4: "1111", atMs: TUESDAY_NOON + minutes * MINUTE, ...more });

  it("flags a success on another card exactly 30 min after the failed attempts, listing them", () => {
    const ok = purchase({ atMs: TUESDAY_NOON + 30 * MINUTE });
    const [hit] = failedThenOtherCard(input([failed(0), failed(5), ok])).hits;
    expect(hit?.sentence()).toMatch(
      /^2 failed attempts on card •••• 1111, then 100\.0 gal of diesel on card •••• 4480 30 min later/,
    );
    expect(hit?.transactionIds).toHaveLength(3);
  });

  it("does not flag a retry on the same card, or one 31 min later", () => {
    expect(
      failedThenOtherCard(input([failed(0, { cardLast4: "4480" }), purchase({ atMs: TUESDAY_NOON + MINUTE })])).hits,
    ).toEqual([]);
    expect(failedThenOtherCard(input([failed(0), purchase({ atMs: TUESDAY_NOON + 31 * MINUTE })])).hits).toEqual([]);
  });

  it("matches the same truck with another driver, and not another driver with no truck in common", () => {
    const ok = purchase({ atMs: TUESDAY_NOON + 10 * MINUTE, driverId: "dr-2", driverName: "Grace Hopper" });
    expect(failedThenOtherCard(input([failed(0), ok])).hits).toHaveLength(1);
    expect(failedThenOtherCard(input([failed(0), { ...ok, truckId: "T-200" }])).hits).toEqual([]);
  });
});
