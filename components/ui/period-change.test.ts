import { describe, expect, it } from "vitest";

import { type MetricId, NOT_SETTLING, type Settling } from "@/lib/model/metrics";

import { periodChange } from "./period-change";

const compared = (
  now: string,
  before: string,
  from = "2026-09-25",
  to = "2026-10-24",
  settling = NOT_SETTLING,
  metric: MetricId = "spend.local-date",
) => ({
  metric,
  current: { amount: now },
  previous: { from, to, amount: before },
  settling,
});

describe("periodChange", () => {
  it("says nothing when the previous period is not known", () => {
    expect(periodChange(null)).toBeNull();
    expect(periodChange(undefined)).toBeNull();
  });

  it("says the change in words, with an arrow that repeats them, and what the previous period spent", () => {
    expect(periodChange(compared("10420.00", "10000.00"))).toEqual({
      arrow: "▲",
      text: "4.2 % more spend than the previous 30 days ($10,000.00)",
    });
    expect(periodChange(compared("9000.00", "10000.00"))).toEqual({
      arrow: "▼",
      text: "10.0 % less spend than the previous 30 days ($10,000.00)",
    });
  });

  it("names the period's length from its days", () => {
    expect(periodChange(compared("2.00", "1.00", "2026-10-24", "2026-10-24"))?.text).toBe(
      "100.0 % more spend than the previous day ($1.00)",
    );
    expect(periodChange(compared("2.00", "1.00", "2026-01-01", "2026-03-31"))?.text).toContain("the previous 90 days");
  });

  it("calls a change under 0.05 % the same, and handles a previous period without spend", () => {
    expect(periodChange(compared("10000.04", "10000.00"))).toEqual({
      arrow: null,
      text: "The same spend as the previous 30 days ($10,000.00)",
    });
    expect(periodChange(compared("5.00", "0.00"))).toEqual({
      arrow: "▲",
      text: "Spend is up from nothing in the previous 30 days",
    });
    expect(periodChange(compared("0.00", "0.00"))).toEqual({
      arrow: null,
      text: "No spend, as in the previous 30 days",
    });
  });

  it("under the tax metric (completed only), claims no change, rise or fall, while purchases are pending", () => {
    const settling: Settling = { purchases: 54, days: 3 };
    const tax = "tax.completed.local-date";
    const fall = periodChange(compared("9000.00", "10000.00", "2026-09-25", "2026-10-24", settling, tax));
    expect(fall).toEqual({
      arrow: null,
      text: "3 days still settling (54 purchases pending): no change against the previous 30 days ($10,000.00) is claimed until they complete",
    });
    expect(periodChange(compared("11000.00", "10000.00", "2026-09-25", "2026-10-24", settling, tax))).toEqual(fall);
    expect(
      periodChange(compared("1.00", "1.00", "2026-10-24", "2026-10-24", { purchases: 1, days: 1 }, tax))?.text,
    ).toBe(
      "1 day still settling (1 purchase pending): no change against the previous day ($1.00) is claimed until they complete",
    );
  });

  it("under a charged metric (pending counted on both sides), says the change and that it may still move", () => {
    const settling: Settling = { purchases: 54, days: 3 };
    expect(periodChange(compared("9000.00", "10000.00", "2026-09-25", "2026-10-24", settling))).toEqual({
      arrow: "▼",
      text: "10.0 % less spend than the previous 30 days ($10,000.00); 3 days still settling (54 purchases pending), so it may still change",
    });
  });
});
