import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { mirrorStoresOfThisFile } from "@/test/mirror-stack";

import { detailFigures, rankedFigures } from "./drilldowns";
import type { MirrorStore } from "./store";

/**
 * The drill-downs judge a purchase's product with the one classifier of lib/model/product-classes (review 4 of issue
 * 16), on both real stores: product names in other spellings and cases than "diesel".
 */

const openStore = mirrorStoresOfThisFile();

describe.each(["sqlite", "postgres"] as const)("drill-down products (%s store)", (kind) => {
  let store: MirrorStore;
  let customers = 0;
  beforeAll(async () => {
    store = await openStore(kind);
  });
  afterAll(() => store.close());
  it("judges products with the one classifier: Diesel and ULSD are diesel, a purchase of DEF itself is DEF (review 4)", async () => {
    const customer = `C${String(++customers)}`;
    const t = (id: string, day: string, product: string, gallons: string, def: string | null): Transaction => ({
      id,
      reference: id,
      at: `${day}T12:00:00.000Z`,
      localOffsetMinutes: -300,
      status: "completed",
      product,
      gallons,
      pricePerGallon: "4.000",
      amount: "10.00",
      station: { id: "s1", name: "S", locNum: "1", city: "Gary", state: "IN" },
      driver: { id: "d1", name: "D", truckId: "T1" },
      card: { last4: "1111" },
      def: def === null ? null : { gallons: def, amount: "1.00", category: "def" },
    });
    await store.upsertTransactions(
      customer,
      [
        t("1", "2026-04-01", "Diesel", "100.000", "2.000"),
        t("2", "2026-04-01", "ULSD #2", "50.000", null),
        t("3", "2026-04-02", "Diesel Exhaust Fluid", "3.000", null),
        t("4", "2026-04-02", "Unleaded 87", "20.000", null),
      ],
      1,
    );
    const range = { from: "2026-04-01", to: "2026-04-30" };
    // DEF (2 + 3) per 100 diesel gallons (100 + 50) = 3.33; the unleaded fill is neither.
    const expected = {
      purchases: 4,
      gallons: "173.000",
      dieselGallons: "150.000",
      defGallons: "5.000",
      defRatioPercent: "3.33",
    };
    const ranked = await rankedFigures(store, customer, "driver", range);
    expect(ranked.rows).toHaveLength(1);
    expect(ranked.rows[0]).toMatchObject(expected);
    expect(ranked.totals).toMatchObject(expected);
    const detail = await detailFigures(store, customer, "driver", "d1", range);
    expect(detail.totals).toMatchObject({ ...expected, lastPurchaseLocalDate: "2026-04-02" });
    expect(detail.trend.points.slice(0, 2).map((p) => p.purchases)).toEqual([2, 2]);
    expect(detail.breakdown.rows[0]).toMatchObject(expected);
  });
});
