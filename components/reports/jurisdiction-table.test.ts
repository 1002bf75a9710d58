import { describe, expect, it } from "vitest";

import type { JurisdictionFigures, JurisdictionReply, JurisdictionRow } from "@/lib/model/insight-jurisdictions";
import type { InsightCoverage, LocalDateRange } from "@/lib/model/insights";

import { previousCoverageOf } from "./jurisdiction-report";
import { linesOf } from "./jurisdiction-table";

// The report table's lines (pure): where each figure links, when a change is shown, and the lines that tie out with
// the transactions list (review 16 #2, #3, #6 and rows of several product names). The tie-out of the figures themselves
// with the list's totals is lib/mirror/jurisdictions.test.ts (both stores) and the BFF's jurisdiction-report.test.ts.

const Q2: LocalDateRange = { from: "2026-04-01", to: "2026-06-30" };
const Q1: LocalDateRange = { from: "2026-01-01", to: "2026-03-31" };

const figures = (over: Partial<JurisdictionFigures> = {}): JurisdictionFigures => ({
  purchases: 2,
  gallons: "100.000",
  amount: "400.00",
  averagePrice: "4.000",
  defGallons: "0.000",
  defAmount: "0.00",
  ...over,
});

const complete = (range: LocalDateRange): InsightCoverage => ({
  requested: range,
  covered: range,
  complete: true,
  asOf: "2026-07-01T00:00:00.000Z",
  note: null,
});

const partial = (range: LocalDateRange, from: string): InsightCoverage => ({
  requested: range,
  covered: { from, to: range.to },
  complete: false,
  asOf: "2026-07-01T00:00:00.000Z",
  note: `The local copy of your transactions reaches back to ${from} so far (older history is still loading): these figures cover ${from} to ${range.to}, not the days from ${range.from}.`,
});

function replyOf(over: Partial<JurisdictionReply> = {}, rows: JurisdictionRow[] = []): JurisdictionReply {
  const none = { purchases: 0, gallons: "0.000", amount: "0.00" };
  return {
    periods: { current: Q2, previous: Q1 },
    coverage: complete(Q2),
    previousCoverage: complete(Q1),
    report: {
      rows,
      totals: figures(),
      pending: none,
      failed: { purchases: 0 },
      quality: { noState: 0, unknownProducts: [], pendingAtEnd: 0 },
      defOnly: none,
      completed: { purchases: 2, gallons: "100.000", amount: "400.00" },
    },
    previous: { range: Q1, totals: figures({ amount: "200.00" }) },
    metric: "tax.completed.local-date",
    settling: { purchases: 0, days: 0 },
    ...over,
  };
}

const row = (over: Partial<JurisdictionRow>): JurisdictionRow => ({
  state: "TX",
  fuel: "diesel",
  products: ["diesel"],
  ...figures(),
  previous: figures({ amount: "200.00" }),
  ...over,
});

const params = (href: string | null) => Object.fromEntries(new URL(href ?? "", "http://x").searchParams);

describe("the jurisdiction table's lines", () => {
  it("links a figure over the days the figures cover, not the requested range, when coverage is partial", () => {
    const lines = linesOf(replyOf({ coverage: partial(Q2, "2026-05-10") }, [row({})]));
    for (const line of lines)
      expect(params(line.href), line.id).toMatchObject({ from: "2026-05-10", to: "2026-06-30" });
    expect(params(lines[0]?.href ?? null)).toMatchObject({ dates: "local", state: "TX", product: "diesel" });
  });

  it("has no links while nothing is covered yet", () => {
    const lines = linesOf(replyOf({ coverage: { ...partial(Q2, Q2.from), covered: null } }, [row({})]));
    expect(lines.map((l) => l.href)).toEqual([null, null]);
  });

  it("with DEF bought alone: the Total row does not link, an all-completed line links with the list's figures", () => {
    const reply = replyOf({}, [row({ products: ["DEF", "diesel"], purchases: 2 })]);
    reply.report.totals = figures({ gallons: "112.000", amount: "442.00", defGallons: "2.500", defAmount: "9.00" });
    reply.report.defOnly = { purchases: 1, gallons: "2.500", amount: "9.00" };
    reply.report.completed = { purchases: 2, gallons: "114.500", amount: "451.00" };
    const lines = linesOf(reply);
    const total = lines.find((l) => l.id === "total");
    expect(total?.href).toBeNull();
    expect(total?.noLink).toContain("DEF");
    const all = lines.at(-1);
    expect(all).toMatchObject({ id: "all-completed", purchases: 2, gallons: "114.500", amount: "451.00" });
    const link = params(all?.href ?? null);
    expect(link).toMatchObject({ from: Q2.from, to: Q2.to, dates: "local", status: "completed" });
    expect(link.product).toBeUndefined();
  });

  it("a row of several product names says why it has no link and links each name", () => {
    const [line] = linesOf(replyOf({}, [row({ products: ["ULSD #2", "diesel"] })]));
    expect(line?.href).toBeNull();
    expect(line?.noLink).toContain("one name at a time");
    expect(line?.productLinks.map((p) => params(p.href))).toMatchObject([
      { state: "TX", product: "ULSD #2" },
      { state: "TX", product: "diesel" },
    ]);
  });

  it("does not claim a change against a previous period the copy covers only in part, and says so", () => {
    const reply = replyOf({ previousCoverage: partial(Q1, "2026-03-01") }, [row({})]);
    for (const line of linesOf(reply)) expect(line.change, line.id).toMatch(/^Not compared/);
    expect(previousCoverageOf(reply)?.note).toMatch(/^Previous period \(2026-01-01 to 2026-03-31\): .*not shown\.$/);
    const whole = replyOf({}, [row({})]);
    expect(linesOf(whole)[0]?.change).toMatch(/more spend/);
    expect(previousCoverageOf(whole)).toBeUndefined();
  });
});
