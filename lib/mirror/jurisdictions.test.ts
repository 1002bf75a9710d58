import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { mirrorStoresOfThisFile } from "@/test/mirror-stack";

import { jurisdictionReport } from "./jurisdictions";
import { periodTotals } from "./period-totals";

/**
 * Fuel by jurisdiction on both real stores (SQLite file, PostgreSQL server): purchases on their local date, DEF never
 * in fuel gallons, pending and failed apart, the data-quality counts. Hand-made rows, written through MirrorStore.
 */

const openStore = mirrorStoresOfThisFile();
const C = "cust-j";

let n = 0;
function tx(over: {
  at: string;
  offset: number | null;
  state?: string;
  product?: string;
  status?: Transaction["status"];
  gallons?: string;
  amount?: string;
  def?: Transaction["def"];
}): Transaction {
  n++;
  return {
    id: `t-${String(n)}`,
    reference: `FF${String(n).padStart(10, "0")}`,
    at: new Date(over.at).toISOString(),
    localOffsetMinutes: over.offset,
    status: over.status ?? "completed",
    product: over.product ?? "diesel",
    gallons: over.gallons ?? "100.000",
    pricePerGallon: "4.000",
    amount: over.amount ?? "400.00",
    station: { id: "st-1", name: "Stop", locNum: "1", city: "Dallas", state: over.state ?? "TX" },
    driver: { id: "d-1", name: "Ann", truckId: "T1" },
    card: { last4: "4821" },
    def: over.def ?? null,
  };
}

const Q1 = { from: "2026-01-01", to: "2026-03-31" };
const Q2 = { from: "2026-04-01", to: "2026-06-30" };

describe.each(["sqlite", "postgres"] as const)("jurisdictionReport (%s)", (kind) => {
  it("counts a purchase on its local date: 23:30 −05:00 on 31 March is Q1 though it is 1 April in UTC", async () => {
    const store = await openStore(kind);
    await store.upsertTransactions(
      C,
      [
        tx({ at: "2026-03-31T23:30:00-05:00", offset: -300, gallons: "10.000", amount: "40.00" }),
        tx({ at: "2026-04-01T00:30:00+00:00", offset: null, gallons: "20.000", amount: "80.00" }),
        // 1 January 00:30 at +09:00 is 31 December in UTC: Q1 by its local date.
        tx({ at: "2026-01-01T00:30:00+09:00", offset: 540, gallons: "1.000", amount: "4.00" }),
        tx({ at: "2025-12-31T23:30:00-08:00", offset: -480, gallons: "2.000", amount: "8.00" }),
      ],
      Date.now(),
    );
    const q1 = await jurisdictionReport(store, C, Q1);
    expect(q1.totals).toMatchObject({ purchases: 2, gallons: "11.000", amount: "44.00", averagePrice: "4.000" });
    const q2 = await jurisdictionReport(store, C, Q2);
    expect(q2.totals).toMatchObject({ purchases: 1, gallons: "20.000", amount: "80.00" });
    await store.close();
  });

  it("keeps DEF out of fuel gallons, counts pending apart, excludes failed, and reports data quality", async () => {
    const store = await openStore(kind);
    const at = "2026-02-10T12:00:00-06:00";
    await store.upsertTransactions(
      C,
      [
        tx({ at, offset: -360, def: { gallons: "5.500", amount: "19.25", category: "bulk" } }),
        tx({ at, offset: -360, product: "DEF", gallons: "2.500", amount: "9.00" }),
        tx({ at, offset: -360, product: "Unleaded 87", gallons: "12.000", amount: "42.00", state: "OK" }),
        tx({ at, offset: -360, product: "car wash", gallons: "0.000", amount: "15.00" }),
        tx({ at, offset: -360, state: "", gallons: "50.000", amount: "200.00" }),
        tx({ at, offset: -360, status: "pending", gallons: "30.000", amount: "120.00" }),
        tx({ at, offset: -360, status: "failed", gallons: "70.000", amount: "280.00" }),
      ],
      Date.now(),
    );
    const r = await jurisdictionReport(store, C, Q1);
    const rows = r.rows.map((x) => [x.state, x.fuel, x.purchases, x.gallons, x.amount, x.defGallons, x.defAmount]);
    expect(rows).toEqual([
      ["OK", "unleaded", 1, "12.000", "42.00", "0.000", "0.00"],
      ["TX", "diesel", 2, "100.000", "400.00", "8.000", "28.25"],
      ["TX", "other", 1, "0.000", "15.00", "0.000", "0.00"],
      ["", "diesel", 1, "50.000", "200.00", "0.000", "0.00"],
    ]);
    expect(r.rows.find((x) => x.state === "TX" && x.fuel === "diesel")?.products).toEqual(["DEF", "diesel"]);
    expect(r.totals).toEqual({
      purchases: 5,
      gallons: "162.000",
      amount: "657.00",
      averagePrice: "4.056",
      defGallons: "8.000",
      defAmount: "28.25",
    });
    expect(r.pending).toEqual({ purchases: 1, gallons: "30.000", amount: "120.00" });
    expect(r.failed).toEqual({ purchases: 1 });
    expect(r.quality).toEqual({
      noState: 1,
      unknownProducts: [{ product: "car wash", purchases: 1 }],
      pendingAtEnd: 1,
    });
    await store.close();
  });

  // Review 16 #1: the list's product parameter arrives lower-cased; the rows keep the provider's spelling.
  it("a row's product, as the list's filter takes it (lower-cased), finds the row's purchases in any spelling", async () => {
    const store = await openStore(kind);
    const at = "2026-02-11T09:00:00-06:00";
    await store.upsertTransactions(
      C,
      [
        tx({ at, offset: -360, product: "Unleaded 87", gallons: "12.000", amount: "42.00" }),
        tx({ at, offset: -360, product: "ULSD #2", gallons: "30.000", amount: "120.00" }),
        tx({ at, offset: -360, product: "Misc.", gallons: "0.000", amount: "7.00" }),
      ],
      Date.now(),
    );
    const r = await jurisdictionReport(store, C, Q1);
    expect(r.rows.flatMap((x) => x.products)).toEqual(["ULSD #2", "Unleaded 87", "Misc."]);
    for (const row of r.rows) {
      const [product] = row.products;
      const list = await periodTotals(store, C, {
        localDays: Q1,
        state: row.state,
        product: product?.toLowerCase(),
        status: "completed",
      } as Parameters<typeof periodTotals>[2]);
      expect(list, product).toMatchObject({ transactions: row.purchases, gallons: row.gallons, amount: row.amount });
    }
    await store.close();
  });

  // Review 16 #2: a purchase of DEF alone is in the list's totals (status=completed) by its own gallons and amount.
  it("carries DEF-only purchases so the all-completed link's list totals equal the report's figures", async () => {
    const store = await openStore(kind);
    const at = "2026-02-12T12:00:00-06:00";
    await store.upsertTransactions(
      C,
      [
        tx({ at, offset: -360, gallons: "112.000", amount: "442.00" }),
        tx({ at, offset: -360, product: "DEF", gallons: "2.500", amount: "9.00" }),
      ],
      Date.now(),
    );
    const r = await jurisdictionReport(store, C, Q1);
    expect(r.defOnly).toEqual({ purchases: 1, gallons: "2.500", amount: "9.00" });
    const list = await periodTotals(store, C, { localDays: Q1, status: "completed" } as Parameters<
      typeof periodTotals
    >[2]);
    expect(r.completed).toEqual({ purchases: list.transactions, gallons: list.gallons, amount: list.amount });
    expect(r.completed).toEqual({ purchases: 2, gallons: "114.500", amount: "451.00" });
    await store.close();
  });
});
