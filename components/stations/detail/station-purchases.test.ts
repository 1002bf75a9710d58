import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";

import { averagesByProduct } from "./station-purchases";

const t = (over: Partial<Transaction>): Transaction => ({
  id: "t",
  reference: "FL1",
  at: "2026-03-04T12:00:00.000Z",
  localOffsetMinutes: null,
  status: "completed",
  product: "diesel",
  gallons: "100.000",
  pricePerGallon: "3.500",
  amount: "350.00",
  station: { id: "s", name: "S", locNum: "00001", city: "Amarillo", state: "TX" },
  driver: { id: "d", name: "D", truckId: null },
  card: { last4: "1234" },
  def: null,
  ...over,
});

describe("averagesByProduct", () => {
  it("averages each product apart (never diesel and unleaded mixed), DEF from the purchases' DEF part, failed ones left out", () => {
    const items = [
      t({
        product: "diesel",
        gallons: "100.000",
        amount: "350.00",
        def: { gallons: "5.000", amount: "20.00", category: "bulk" },
      }),
      t({
        product: "diesel",
        gallons: "50.000",
        amount: "180.00",
        status: "pending",
        def: { gallons: "0.000", amount: "0.00", category: "none" },
      }),
      t({ product: "unleaded", gallons: "20.000", amount: "60.00" }),
      t({ product: "diesel", gallons: "999.000", amount: "1.00", status: "failed" }),
    ];
    expect(averagesByProduct(items)).toEqual([
      // (350 + 180) / 150 = 3.5333…
      { product: "diesel", name: "Diesel", average: "3.533", purchases: 2 },
      { product: "def", name: "DEF", average: "4.000", purchases: 1 },
      { product: "unleaded", name: "Unleaded", average: "3.000", purchases: 1 },
    ]);
    expect(averagesByProduct([t({ status: "failed" })])).toEqual([]);
  });
});
