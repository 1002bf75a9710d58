import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fromMinorUnits, type Transaction } from "@/lib/model";
import { DRILLDOWN_DIMENSIONS, type DrilldownDimension } from "@/lib/model/insight-drilldowns";
import { mirrorStoresOfThisFile } from "@/test/mirror-stack";

import { defRatioPercent, detailFigures, keyKnown, rankedFigures } from "./drilldowns";
import { localDateOf } from "./local-dates";
import type { MirrorStore } from "./store";

/**
 * The drill-down queries against a row-by-row sum of the seeded rows, on both real stores (SQLite in a temporary
 * file, PostgreSQL started in a temporary directory): random rows around a few local days (offsets from −10 h to
 * +14 h and none, so a row's UTC date and local date differ), every status, diesel and unleaded, DEF or not, trucks
 * or none; random ranges of local dates.
 */

const openStore = mirrorStoresOfThisFile();
const DAY_MS = 86_400_000;
const BASE_MS = Date.parse("2026-05-10T00:00:00Z");

const row = fc
  .record({
    at: fc.integer({ min: -6 * 96, max: 6 * 96 }).map((q) => BASE_MS + q * 900_000),
    offset: fc.constantFrom(null, -600, -300, -240, 0, 330, 540, 840),
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    product: fc.constantFrom("diesel", "unleaded"),
    driver: fc.integer({ min: 0, max: 3 }),
    truck: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    card: fc.integer({ min: 0, max: 2 }),
    station: fc.integer({ min: 0, max: 3 }),
    gallonsMilli: fc.integer({ min: 1, max: 250_000 }),
    amountCents: fc.integer({ min: 1, max: 120_000 }),
    defMilli: fc.option(fc.integer({ min: 1, max: 15_000 }), { nil: null }),
  })
  .map((r): Omit<Transaction, "id" | "reference"> => ({
    at: new Date(r.at).toISOString(),
    localOffsetMinutes: r.offset,
    status: r.status,
    product: r.product,
    gallons: fromMinorUnits(BigInt(r.gallonsMilli), 3),
    pricePerGallon: "3.999",
    amount: fromMinorUnits(BigInt(r.amountCents), 2),
    station: {
      id: `s${String(r.station)}`,
      name: `Station ${String(r.station)}`,
      locNum: "1",
      city: "Joliet",
      state: "IL",
    },
    driver: {
      id: `d${String(r.driver)}`,
      name: `Driver ${String(r.driver)}`,
      truckId: r.truck === null ? null : `T${String(r.truck)}`,
    },
    card: { last4: `000${String(r.card)}` },
    def:
      r.defMilli === null ? null : { gallons: fromMinorUnits(BigInt(r.defMilli), 3), amount: "1.00", category: "def" },
  }));

const rows = fc
  .array(row, { minLength: 0, maxLength: 60 })
  .map((items) => items.map((t, i): Transaction => ({ ...t, id: `t${String(i)}`, reference: `FF${String(i)}` })));

const date = fc.integer({ min: -4, max: 4 }).map((d) => new Date(BASE_MS + d * DAY_MS).toISOString().slice(0, 10));
const range = fc.tuple(date, date).map(([a, b]) => (a <= b ? { from: a, to: b } : { from: b, to: a }));

const keyOf = (t: Transaction, dimension: DrilldownDimension): string | null =>
  dimension === "driver"
    ? t.driver.id
    : dimension === "truck"
      ? t.driver.truckId
      : dimension === "card"
        ? t.card.last4
        : t.station.id;

const milli = (s: string) => BigInt(s.replace(".", ""));

/** The figures the queries must give, summed here row by row. */
function expected(all: Transaction[], r: { from: string; to: string }, dimension: DrilldownDimension, key?: string) {
  const inRange = all.filter((t) => {
    const local = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
    return (
      t.status !== "failed" && local >= r.from && local <= r.to && (key === undefined || keyOf(t, dimension) === key)
    );
  });
  const sum = (ts: Transaction[]) => {
    const gallons = ts.reduce((a, t) => a + milli(t.gallons), 0n);
    const diesel = ts.filter((t) => t.product === "diesel").reduce((a, t) => a + milli(t.gallons), 0n);
    const def = ts.reduce((a, t) => a + (t.def ? milli(t.def.gallons) : 0n), 0n);
    return {
      purchases: ts.length,
      gallons: fromMinorUnits(gallons, 3),
      amount: fromMinorUnits(
        ts.reduce((a, t) => a + milli(t.amount), 0n),
        2,
      ),
      defRatioPercent: defRatioPercent(def, diesel),
      lastPurchaseAt: ts.length === 0 ? null : new Date(Math.max(...ts.map((t) => Date.parse(t.at)))).toISOString(),
    };
  };
  const byKey = new Map<string | null, Transaction[]>();
  for (const t of inRange) byKey.set(keyOf(t, dimension), [...(byKey.get(keyOf(t, dimension)) ?? []), t]);
  return { totals: sum(inRange), byKey: new Map([...byKey].map(([k, ts]) => [k, sum(ts)])), inRange };
}

const pick = (o: object) => {
  const { purchases, gallons, amount, defRatioPercent: def, lastPurchaseAt } = o as Record<string, unknown>;
  return { purchases, gallons, amount, defRatioPercent: def, lastPurchaseAt };
};

describe.each(["sqlite", "postgres"] as const)("drill-down queries (%s store)", (kind) => {
  let store: MirrorStore;
  let customers = 0;
  beforeAll(async () => {
    store = await openStore(kind);
  });
  afterAll(() => store.close());

  it("ranks every key with exactly the sums of its rows on the range's local dates (completed and pending)", async () => {
    await fc.assert(
      fc.asyncProperty(rows, range, fc.constantFrom(...DRILLDOWN_DIMENSIONS), async (all, r, dimension) => {
        const customer = `C${String(++customers)}`;
        await store.upsertTransactions(customer, all, 1);
        const got = await rankedFigures(store, customer, dimension, r);
        const want = expected(all, r, dimension);
        expect(pick(got.totals)).toEqual(want.totals);
        const keyed = [...want.byKey].filter(([k]) => k !== null);
        expect(new Map(got.rows.map((x) => [x.key, pick(x)]))).toEqual(new Map(keyed));
        // Ranked by amount, largest first.
        const amounts = got.rows.map((x) => milli(x.amount));
        expect(amounts).toEqual([...amounts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
        // Rows without a truck: in the totals, not in the table.
        expect(pick(got.withoutKey)).toEqual(
          dimension === "truck" ? (want.byKey.get(null) ?? pick(got.withoutKey)) : pick(got.withoutKey),
        );
        if (dimension === "truck" && !want.byKey.has(null)) expect(got.withoutKey.purchases).toBe(0);
      }),
      { numRuns: 25 },
    );
  });

  it("details one key: totals, a trend per local day that adds up to them, and its stations or drivers", async () => {
    await fc.assert(
      fc.asyncProperty(rows, range, fc.constantFrom(...DRILLDOWN_DIMENSIONS), async (all, r, dimension) => {
        const customer = `C${String(++customers)}`;
        await store.upsertTransactions(customer, all, 1);
        const key = all.map((t) => keyOf(t, dimension)).find((k) => k !== null) ?? "none";
        const got = await detailFigures(store, customer, dimension, key, r);
        const want = expected(all, r, dimension, key);
        expect(pick(got.totals)).toEqual(want.totals);
        // One point per local day of the range, each the sum of that day's rows.
        expect(got.trend.unit).toBe("day");
        expect(got.trend.points.map((p) => p.from)).toEqual(
          Array.from({ length: (Date.parse(r.to) - Date.parse(r.from)) / DAY_MS + 1 }, (_, i) =>
            new Date(Date.parse(r.from) + i * DAY_MS).toISOString().slice(0, 10),
          ),
        );
        for (const p of got.trend.points) {
          const day = expected(all, { from: p.from, to: p.to }, dimension, key).totals;
          expect({ purchases: p.purchases, gallons: p.gallons, amount: p.amount }).toEqual({
            purchases: day.purchases,
            gallons: day.gallons,
            amount: day.amount,
          });
        }
        const by = dimension === "station" ? "driver" : "station";
        const parts = expected(want.inRange, r, by).byKey;
        expect(got.breakdown.dimension).toBe(by);
        expect(new Map(got.breakdown.rows.map((x) => [x.key, pick(x)]))).toEqual(parts);
      }),
      { numRuns: 25 },
    );
  });

  it("counts a purchase on its local date, not its UTC date, at both ends of the range", async () => {
    const base = {
      status: "completed" as const,
      product: "diesel",
      pricePerGallon: "4.000",
      station: { id: "s1", name: "Edge", locNum: "1", city: "Gary", state: "IN" },
      driver: { id: "d1", name: "Edge Driver", truckId: null },
      card: { last4: "4480" },
      def: null,
    };
    const customer = `C${String(++customers)}`;
    await store.upsertTransactions(
      customer,
      [
        // 2026-05-31 23:30 local (−05:00) = 06-01 04:30 UTC: in May.
        {
          ...base,
          id: "a",
          reference: "A",
          at: "2026-06-01T04:30:00.000Z",
          localOffsetMinutes: -300,
          gallons: "10.000",
          amount: "40.00",
        },
        // 2026-06-01 00:30 local (+09:00) = 05-31 15:30 UTC: in June.
        {
          ...base,
          id: "b",
          reference: "B",
          at: "2026-05-31T15:30:00.000Z",
          localOffsetMinutes: 540,
          gallons: "20.000",
          amount: "80.00",
        },
        // No offset: UTC. 2026-05-01 00:00 UTC: in May.
        {
          ...base,
          id: "c",
          reference: "C",
          at: "2026-05-01T00:00:00.000Z",
          localOffsetMinutes: null,
          gallons: "1.000",
          amount: "4.00",
        },
        // 2026-04-30 23:59 local (−04:00) = 05-01 03:59 UTC: in April.
        {
          ...base,
          id: "d",
          reference: "D",
          at: "2026-05-01T03:59:00.000Z",
          localOffsetMinutes: -240,
          gallons: "2.000",
          amount: "8.00",
        },
      ],
      1,
    );
    const may = await rankedFigures(store, customer, "driver", { from: "2026-05-01", to: "2026-05-31" });
    expect(may.totals).toMatchObject({ purchases: 2, gallons: "11.000", amount: "44.00" });
    const detail = await detailFigures(store, customer, "card", "4480", { from: "2026-05-31", to: "2026-06-01" });
    expect(detail.trend.points).toEqual([
      { from: "2026-05-31", to: "2026-05-31", purchases: 1, gallons: "10.000", amount: "40.00" },
      { from: "2026-06-01", to: "2026-06-01", purchases: 1, gallons: "20.000", amount: "80.00" },
    ]);
    // The newest purchase (a, 04:30 UTC) on its own local date, not b's later local date (lib/model's doc).
    expect(detail.totals.lastPurchaseLocalDate).toBe("2026-05-31");
  });

  it("gives the DEF ratio exactly, weeks for long ranges, and zeros (not unknown) for a known key without purchases", async () => {
    const customer = `C${String(++customers)}`;
    const t = (id: string, at: string, product: string, gallons: string, def: string | null): Transaction => ({
      id,
      reference: id,
      at,
      localOffsetMinutes: null,
      status: "completed",
      product,
      gallons,
      pricePerGallon: "4.000",
      amount: "10.00",
      station: { id: "s1", name: "S", locNum: "1", city: "Gary", state: "IN" },
      driver: { id: "d1", name: "D", truckId: "T9" },
      card: { last4: "1111" },
      def: def === null ? null : { gallons: def, amount: "1.00", category: "def" },
    });
    await store.upsertTransactions(
      customer,
      [
        t("1", "2026-01-05T12:00:00.000Z", "diesel", "300.000", "10.000"),
        t("2", "2026-01-06T12:00:00.000Z", "unleaded", "50.000", null),
        t("3", "2026-02-20T12:00:00.000Z", "diesel", "0.001", "0.001"),
      ],
      1,
    );
    // (10 + 0.001) / (300 + 0.001) = 3.33368 % → 3.33; unleaded gallons are not its denominator.
    const q1 = await detailFigures(store, customer, "truck", "T9", { from: "2026-01-01", to: "2026-03-31" });
    expect(q1.totals.defRatioPercent).toBe("3.33");
    expect(q1.totals.dieselGallons).toBe("300.001");
    expect(q1.trend.unit).toBe("week");
    expect(q1.trend.points[0]).toEqual({
      from: "2026-01-01",
      to: "2026-01-07",
      purchases: 2,
      gallons: "350.000",
      amount: "20.00",
    });
    expect(q1.trend.points.at(-1)).toMatchObject({ from: "2026-03-26", to: "2026-03-31" });
    expect(q1.trend.points.reduce((n, p) => n + p.purchases, 0)).toBe(3);
    const none = await detailFigures(store, customer, "truck", "T9", { from: "2025-01-01", to: "2025-01-31" });
    expect(none.totals).toMatchObject({ purchases: 0, amount: "0.00", defRatioPercent: null, lastPurchaseAt: null });
    expect(await keyKnown(store, customer, "truck", "T9")).toEqual({ name: "T9", detail: "D" });
    expect(await keyKnown(store, customer, "truck", "T0")).toBeNull();
    expect(defRatioPercent(1n, 0n)).toBeNull();
  });
});
