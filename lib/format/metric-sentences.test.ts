import { describe, expect, it } from "vitest";

import { countsStatus, type MetricId, METRICS, statusesOf } from "@/lib/model/metrics";

import { changeCell, compareSpend, listTotalsWording, metricPeriodCaption } from "./metric-sentences";

// The metrics layer's definitions and sentences (issue 25 item 1): each figure's statuses and basis defined once; the
// comparison rule takes one definition for both sides and says "still settling" instead of a change.

describe("the metric definitions", () => {
  it("define purchases, charged and completed-only once, and every metric names its set, basis and caption", () => {
    expect(statusesOf("purchases")).toEqual(["completed", "pending", "failed"]);
    expect(statusesOf("charged")).toEqual(["completed", "pending"]);
    expect(statusesOf("completed")).toEqual(["completed"]);
    expect(countsStatus("charged", "failed")).toBe(false);
    expect(countsStatus("charged", "pending")).toBe(true);
    for (const [id, m] of Object.entries(METRICS)) {
      expect(m.id).toBe(id);
      expect(m.caption).toMatch(/\.$/);
    }
    expect(METRICS["tax.completed.local-date"]).toMatchObject({ statuses: "completed", basis: "local-date" });
    expect(METRICS["spend.local-date"]).toMatchObject({ statuses: "charged", basis: "local-date" });
  });

  it("captions a list with its period and basis", () => {
    const ids: MetricId[] = ["spend.local-date", "spend.utc-day", "tax.completed.local-date"];
    expect(ids.map((id) => metricPeriodCaption(id, "2026-10-01", "2026-10-30"))).toEqual([
      "2026-10-01 to 2026-10-30, by each purchase's local date; completed and pending purchases (failed ones are not charged).",
      "2026-10-01 to 2026-10-30, by UTC calendar day; completed and pending purchases (failed ones are not charged).",
      "2026-10-01 to 2026-10-30, by each purchase's local date; completed purchases only.",
    ]);
  });
});

describe("the totals bar's wording", () => {
  it("sums what its caption claims for each Status filter", () => {
    expect(listTotalsWording(undefined).sums).toBe("charged");
    expect(listTotalsWording(null).purchasesLabel).toBe("Purchases (any status)");
    expect(listTotalsWording("completed")).toMatchObject({ sums: "completed", purchasesLabel: "Completed purchases" });
    expect(listTotalsWording("failed")).toMatchObject({ sums: null, amountLabel: "Amount charged" });
    expect(listTotalsWording(undefined, 1).caption).toContain("the 1 failed one too");
  });
});

describe("comparing two periods", () => {
  const previous = { from: "2026-09-01", to: "2026-09-30", amount: "1000.00" };

  it("is the same sentence on both sides' definition; under the tax metric no fall (or rise) while purchases settle", () => {
    const tax = "tax.completed.local-date" as const;
    expect(
      compareSpend({ metric: tax, current: { amount: "955.00" }, previous, settling: { purchases: 0, days: 0 } }),
    ).toMatchObject({
      verdict: "less",
      text: "4.5 % less spend than the previous 30 days ($1,000.00)",
    });
    expect(
      compareSpend({ metric: tax, current: { amount: "955.00" }, previous, settling: { purchases: 54, days: 3 } }),
    ).toMatchObject({
      verdict: "settling",
      arrow: null,
      text: expect.stringMatching(/^3 days still settling \(54 purchases pending\)/) as unknown,
    });
  });

  it("under a charged metric compares like for like while purchases settle, and says they do", () => {
    expect(
      compareSpend({
        metric: "spend.local-date",
        current: { amount: "1100.00" },
        previous,
        settling: { purchases: 7, days: 3 },
      }),
    ).toEqual({
      verdict: "more",
      arrow: "▲",
      text: "10.0 % more spend than the previous 30 days ($1,000.00); 3 days still settling (7 purchases pending), so it may still change",
    });
  });

  it("says a table cell's change in words, or settling under the tax metric", () => {
    const spend = "spend.local-date" as const;
    expect(changeCell("110.00", "100.00", { purchases: 0, days: 0 }, spend)).toBe("up 10.0 %");
    expect(changeCell("90.00", "100.00", { purchases: 0, days: 0 }, spend)).toBe("down 10.0 %");
    expect(changeCell("90.00", "100.00", { purchases: 2, days: 1 }, spend)).toBe("down 10.0 %");
    expect(changeCell("90.00", "100.00", { purchases: 2, days: 1 }, "tax.completed.local-date")).toBe("settling");
    expect(changeCell("5.00", "0.00", { purchases: 0, days: 0 }, spend)).toBe("new");
  });
});
