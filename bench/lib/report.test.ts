import { describe, expect, it } from "vitest";

import {
  formatValue,
  judge,
  makeFigure,
  median,
  notMeasured,
  percentile,
  relativeToCalibration,
  renderMarkdown,
  type Report,
  summarize,
} from "./report";

describe("median and percentile", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it("uses the nearest rank and does not reorder its input", () => {
    const values = [10, 50, 20, 40, 30];
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 99)).toBe(50);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 0)).toBe(10);
    expect(values).toEqual([10, 50, 20, 40, 30]);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("judge", () => {
  it("compares numbers with ≤ and ≥, bounds included", () => {
    expect(judge(25, { op: "<=", target: 25 })).toBe("pass");
    expect(judge(26, { op: "<=", target: 25 })).toBe("fail");
    expect(judge(95, { op: ">=", target: 95 })).toBe("pass");
    expect(judge(94, { op: ">=", target: 95 })).toBe("fail");
  });

  it("compares strings for equality", () => {
    expect(judge("yes", { op: "==", target: "yes" })).toBe("pass");
    expect(judge("no", { op: "==", target: "yes" })).toBe("fail");
  });

  it("never passes a missing or non-numeric value against a numeric goal", () => {
    expect(judge(null, { op: "<=", target: 1 })).toBe("not-measured");
    expect(judge(Number.NaN, { op: "<=", target: 1 })).toBe("fail");
    expect(judge("3", { op: "<=", target: 5 })).toBe("fail");
  });

  it("marks figures without a goal as information", () => {
    expect(judge(3, null)).toBe("info");
    expect(judge(null, null)).toBe("not-measured");
  });
});

describe("report", () => {
  const report: Report = {
    startedAt: "2026-11-21T00:00:00.000Z",
    finishedAt: "2026-11-21T00:10:00.000Z",
    machine: { calibrationMs: 11, cpus: 2, cpuModel: "Test CPU", memoryGb: 4, node: "v20.0.0", platform: "Linux" },
    command: "npm run bench -- sandbox map",
    smoke: false,
    long: false,
    parts: ["sandbox", "map"],
    secondsByPart: { sandbox: 12.5, map: 1 },
    figures: [
      makeFigure({
        part: "sandbox",
        name: "worst p99",
        value: 22,
        unit: "ms",
        goal: { op: "<=", target: 25 },
        command: "npm run bench -- sandbox",
        note: "a | b",
      }),
      makeFigure({
        part: "sandbox",
        name: "req/s",
        value: 1234.56,
        unit: "req/s",
        command: "npm run bench -- sandbox",
      }),
      notMeasured({
        part: "map",
        name: "draw",
        unit: "ms",
        goal: { op: "<=", target: 300 },
        command: "npm run bench -- map",
        reason: "no map",
      }),
    ],
    errors: [],
  };

  it("counts figures by verdict", () => {
    expect(summarize(report.figures)).toEqual({ pass: 1, fail: 0, info: 1, "not-measured": 1 });
  });

  it("renders one table per part with value, goal, verdict, command and how", () => {
    const md = renderMarkdown(report);
    expect(md).toContain("## 1. Sandbox");
    expect(md).toContain("| worst p99 | 22 ms | 2 × | ≤ 25 ms | pass | `npm run bench -- sandbox` | a \\| b |");
    expect(md).toContain("| req/s | 1,235 req/s | — | — | info |");
    expect(md).toContain(
      "| draw | — | — | ≤ 300 ms | **not measured** | `npm run bench -- map` | not available: no map |",
    );
    // Issue 26: the host's calibration figure, and every time also as a multiple of it.
    expect(md).toContain("- CPU calibration: 11 ms (bench/lib/calibration.ts:");
    expect(md).toContain("1 pass, 0 fail, 1 not measured, 1 for information");
  });

  it("says when a part broke", () => {
    const md = renderMarkdown({ ...report, errors: [{ part: "map", message: "chromium crashed" }] });
    expect(md).toContain("**The bench failed in this part:** chromium crashed");
  });

  it("says a time as a multiple of the calibration figure (seconds too), nothing for other units or without one", () => {
    expect(relativeToCalibration(110, "ms", 50)).toBe("2.2 ×");
    expect(relativeToCalibration(1.5, "s", 50)).toBe("30 ×");
    expect(relativeToCalibration(3, "MB", 50)).toBe("—");
    expect(relativeToCalibration(110, "ms", undefined)).toBe("—");
  });

  it("formats values for reading", () => {
    expect(formatValue(0.0042, "")).toBe("0.0042");
    expect(formatValue(12.345, "MB")).toBe("12.3 MB");
    expect(formatValue(null, "ms")).toBe("—");
    expect(formatValue("yes", "")).toBe("yes");
  });
});
