import { describe, expect, it } from "vitest";

import type { SummaryTotals } from "@/lib/model";

import { periodChange } from "./period-change";

const totals = (amount: string): SummaryTotals => ({
  transactions: 10,
  gallons: "100.000",
  amount,
  averagePricePerGallon: null,
});
const previous = (amount: string, from = "2026-09-25", to = "2026-10-24") => ({ from, to, totals: totals(amount) });

describe("periodChange", () => {
  it("says nothing when the previous period is not known", () => {
    expect(periodChange(totals("10.00"), null)).toBeNull();
    expect(periodChange(totals("10.00"), undefined)).toBeNull();
  });

  it("says the change in words, with an arrow that repeats them, and what the previous period spent", () => {
    expect(periodChange(totals("10420.00"), previous("10000.00"))).toEqual({
      arrow: "▲",
      text: "4.2 % more spend than the previous 30 days ($10,000.00)",
    });
    expect(periodChange(totals("9000.00"), previous("10000.00"))).toEqual({
      arrow: "▼",
      text: "10.0 % less spend than the previous 30 days ($10,000.00)",
    });
  });

  it("names the period's length from its days", () => {
    expect(periodChange(totals("2.00"), previous("1.00", "2026-10-24", "2026-10-24"))?.text).toBe(
      "100.0 % more spend than the previous day ($1.00)",
    );
    expect(periodChange(totals("2.00"), previous("1.00", "2026-01-01", "2026-03-31"))?.text).toContain(
      "the previous 90 days",
    );
  });

  it("calls a change under 0.05 % the same, and handles a previous period without spend", () => {
    expect(periodChange(totals("10000.04"), previous("10000.00"))).toEqual({
      arrow: null,
      text: "The same spend as the previous 30 days ($10,000.00)",
    });
    expect(periodChange(totals("5.00"), previous("0.00"))).toEqual({
      arrow: "▲",
      text: "Spend is up from nothing in the previous 30 days",
    });
    expect(periodChange(totals("0.00"), previous("0.00"))).toEqual({
      arrow: null,
      text: "No spend, as in the previous 30 days",
    });
  });
});
