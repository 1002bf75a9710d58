import { describe, expect, it } from "vitest";

import type { SubjectHit } from "@/lib/insights/exceptions/types";
import { EXCEPTION_HITS_PER_PAGE, type ExceptionRuleId } from "@/lib/model/insight-exceptions";

import { hitsPageOf } from "./exceptions-page";
import type { JudgedOutcome } from "./exceptions-read";

// The worker answers with the page's hits only, their sentences written, and every hit's count: a month of a large
// fleet found 77,781 hits at 1,000,000 rows (bench insights-exceptions), and writing every sentence and copying every
// hit back to the request's thread cost about as much as judging them.

const hit = (rule: ExceptionRuleId, i: number, written: { n: number }): SubjectHit => ({
  rule,
  sentence: () => {
    written.n++;
    return `${rule} ${String(i)}`;
  },
  atMs: 1_000_000 + i * 60_000,
  localDate: "2026-11-17",
  transactionIds: [`tx-${rule}-${String(i)}`],
  context: { from: "2026-11-17", to: "2026-11-17", driver: null, card: null, truck: null, label: "" },
  subject: {
    driverId: `dr-${String(i % 3)}`,
    driverName: `Driver ${String(i % 3)}`,
    cardLast4: String(1000 + (i % 2)),
  },
});

function judged(written: { n: number }): Map<ExceptionRuleId, JudgedOutcome> {
  return new Map<ExceptionRuleId, JudgedOutcome>([
    ["off-hours", { hits: Array.from({ length: 90 }, (_, i) => hit("off-hours", i, written)), notJudged: null }],
    ["rapid-fills", { hits: Array.from({ length: 30 }, (_, i) => hit("rapid-fills", i, written)), notJudged: null }],
  ]);
}

describe("the page of hits the worker sends back", () => {
  it("writes the sentences of the page's hits only, newest first, and counts every hit", () => {
    const written = { n: 0 };
    const page = hitsPageOf(judged(written), { rule: null, group: null, page: 2 });
    expect(page.total).toBe(120);
    expect(page.hits).toHaveLength(EXCEPTION_HITS_PER_PAGE);
    expect(written.n).toBe(EXCEPTION_HITS_PER_PAGE);
    const times = page.hits.map((h) => h.atMs);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.hits[0]?.sentenceText).toMatch(/^(off-hours|rapid-fills) \d+$/);
  });

  it("narrows to one rule and groups by driver, biggest group first, with each group's count", () => {
    const written = { n: 0 };
    const page = hitsPageOf(judged(written), { rule: "rapid-fills", group: "driver", page: 1 });
    expect(page.total).toBe(30);
    expect(page.groups.map((g) => g.count)).toEqual([10, 10, 10]);
    expect(page.hits.every((h) => h.rule === "rapid-fills")).toBe(true);
    expect(written.n).toBe(30);
  });

  it("is empty past the last page (the operation answers that with a 400 naming the pages)", () => {
    const written = { n: 0 };
    expect(hitsPageOf(judged(written), { rule: null, group: null, page: 4 })).toMatchObject({ hits: [], total: 120 });
    expect(written.n).toBe(0);
  });
});
