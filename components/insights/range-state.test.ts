import { describe, expect, it } from "vitest";

import { recentQuarters } from "@/lib/model/insights";

import { insightRangeLabel, insightRangeProblems, parseInsightRange, withInsightRange } from "./range-state";

const parse = (query: string) => parseInsightRange(new URLSearchParams(query));

describe("an insight page's period in its URL", () => {
  it("reads a quarter, a range, or the default, and sets aside what the BFF would refuse", () => {
    expect(parse("quarter=2026-Q3")).toEqual({ kind: "quarter", quarter: "2026-Q3" });
    expect(parse("from=2026-05-01&to=2026-05-31")).toEqual({ kind: "range", from: "2026-05-01", to: "2026-05-31" });
    expect(parse("quarter=2026-Q5")).toEqual({ kind: "default" });
    expect(parse("from=2026-05-31&to=2026-05-01")).toEqual({ kind: "range", from: "2026-05-01", to: "2026-05-31" });
    expect(parse("from=2026-02-30&to=2026-03-01")).toEqual({ kind: "default" });
  });
  it("says which part of a link's period was not used, and what is shown instead (issue 26)", () => {
    const problems = (query: string) => insightRangeProblems(new URLSearchParams(query));
    expect(problems("quarter=2026-Q3")).toEqual([]);
    expect(problems("from=2026-05-01&to=2026-05-31")).toEqual([]);
    expect(problems("")).toEqual([]);
    expect(problems("quarter=2026-Q9")).toEqual([
      "“2026-Q9” is not a quarter (written like 2026-Q3); showing the last 30 days.",
    ]);
    expect(problems("from=2026-05-31&to=2026-05-01")).toEqual([
      "The start date 2026-05-31 was after the end date 2026-05-01; showing 2026-05-01 to 2026-05-31.",
    ]);
    expect(problems("from=2026-02-30&to=2026-03-01")).toEqual([
      "The start date (from) “2026-02-30” is not a day of the calendar; showing the last 30 days.",
    ]);
    expect(problems("from=May&to=2026-05-31")).toEqual([
      "The start date (from) “May” is not a day written as YYYY-MM-DD; showing the last 30 days.",
    ]);
    expect(problems("from=2026-05-01")).toEqual([
      "A period needs both a start date (from) and an end date (to); showing the last 30 days.",
    ]);
    expect(problems("quarter=2026-Q2&from=2026-05-01&to=2026-05-31")).toEqual([
      "The link's dates were set aside for its quarter: showing Q2 2026 (2026-04-01 to 2026-06-30).",
    ]);
  });
  it("writes the period and keeps the page's other parameters", () => {
    const current = new URLSearchParams("rule=night&from=2026-01-01&to=2026-01-31");
    expect(withInsightRange(current, { kind: "quarter", quarter: "2026-Q1" })).toBe("rule=night&quarter=2026-Q1");
    expect(withInsightRange(current, { kind: "default" })).toBe("rule=night");
  });
  it("drops the parameters a page names (the exceptions' page of hits) when the period changes", () => {
    const current = new URLSearchParams("rule=night&group=driver&page=3&quarter=2026-Q1");
    expect(withInsightRange(current, { kind: "quarter", quarter: "2026-Q2" }, ["page"])).toBe(
      "rule=night&group=driver&quarter=2026-Q2",
    );
  });
  it("says the period in words", () => {
    expect(insightRangeLabel({ kind: "quarter", quarter: "2026-Q1" })).toBe("Q1 2026 (2026-01-01 to 2026-03-31)");
    expect(insightRangeLabel({ kind: "default" })).toBe("the last 30 days");
  });
  it("offers the last eight quarters, this one first, across years", () => {
    const quarters = recentQuarters("2026-02-10", 8);
    expect(quarters.map((q) => q.id)).toEqual([
      "2026-Q1",
      "2025-Q4",
      "2025-Q3",
      "2025-Q2",
      "2025-Q1",
      "2024-Q4",
      "2024-Q3",
      "2024-Q2",
    ]);
    expect(quarters[1]?.range).toEqual({ from: "2025-10-01", to: "2025-12-31" });
    expect(quarters[0]?.label).toBe("Q1 2026");
  });
});
