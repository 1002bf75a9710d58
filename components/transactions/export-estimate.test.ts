import { describe, expect, it } from "vitest";

import type { ExportRate } from "@/lib/model";

import { estimateExportSeconds, secondsLeftAt, updateEstimate } from "./export-estimate";

/** The spec's default budget: 60 requests a minute, 200 rows a request. */
const rate = (sentInWindow: number, pausedForSeconds = 0): ExportRate => ({
  rowsPerRequest: 200,
  requestsPerWindow: 60,
  windowSeconds: 60,
  sentInWindow,
  pausedForSeconds,
});

describe("estimateExportSeconds", () => {
  it("bounds a 25,000-row export at 60 requests a minute by the budget: about two windows at the start, not 14 s", () => {
    // 125 requests: the first window's 60 go at once, the next 60 a window later, the last 5 a window after that.
    const atStart = estimateExportSeconds(400, 25_000, rate(5));
    expect(atStart).toBeGreaterThanOrEqual(120);
    expect(atStart).toBeLessThanOrEqual(130);
  });

  it("needs one more window once the first is used up, and only network time for what still fits", () => {
    expect(estimateExportSeconds(12_000, 25_000, rate(60))).toBe(120);
    expect(estimateExportSeconds(24_000, 25_000, rate(60))).toBe(60);
    expect(estimateExportSeconds(24_000, 25_000, rate(10))).toBeLessThanOrEqual(5);
  });

  it("adds a pause the upstream asked for", () => {
    expect(estimateExportSeconds(24_000, 25_000, rate(10, 30))).toBeGreaterThanOrEqual(30);
  });

  it("is scaled by the budget: 120 a minute halves the windows", () => {
    const doubled: ExportRate = { ...rate(0), requestsPerWindow: 120 };
    expect(estimateExportSeconds(0, 48_000, doubled)).toBe(60);
    expect(estimateExportSeconds(0, 48_000, rate(0))).toBe(180);
  });

  it("has nothing to say without a total or the budget, or when done", () => {
    expect(estimateExportSeconds(10, null, rate(0))).toBeNull();
    expect(estimateExportSeconds(10, 100, null)).toBeNull();
    expect(estimateExportSeconds(100, 100, rate(0))).toBeNull();
  });
});

describe("the estimate over time", () => {
  it("counts down while stalled and never up", () => {
    const t0 = 1_000_000;
    const first = updateEstimate(null, 12_000, 25_000, rate(60), t0);
    expect(first).not.toBeNull();
    const shown: number[] = [];
    let estimate = first;
    // The walk waits for the budget: reports keep coming with the same rows while the window's use changes.
    for (let second = 0; second <= 50; second += 5) {
      estimate = updateEstimate(estimate, 12_000, 25_000, rate(60 - second), t0 + second * 1000);
      shown.push(secondsLeftAt(estimate, t0 + second * 1000) ?? Number.NaN);
    }
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeLessThan(shown[i - 1] ?? Number.POSITIVE_INFINITY);
    expect(shown[0]).toBe(120);
    expect(shown.at(-1)).toBe(70);
  });

  it("re-estimates when rows move, and never shows less than 1 s while running", () => {
    const t0 = 0;
    const first = updateEstimate(null, 24_800, 25_000, rate(0), t0);
    expect(secondsLeftAt(first, t0 + 60_000)).toBe(1);
    const next = updateEstimate(first, 24_900, 25_000, rate(1), t0 + 2_000);
    expect(next).not.toBe(first);
    expect(next?.rowsDone).toBe(24_900);
  });
});
