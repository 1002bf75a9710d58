import { describe, expect, it } from "vitest";

import { BASELINE, chartGeometry, MARGIN, PLOT_HEIGHT, PLOT_WIDTH } from "./daily-chart-geometry";

const day = (date: string, amount: string, gallons: string) => ({ date, amount, gallons, transactions: 1 });

describe("chartGeometry", () => {
  it("splits the plot into one slot per day, bars centred in them", () => {
    const g = chartGeometry([day("2026-11-01", "100.00", "25.000"), day("2026-11-02", "50.00", "10.000")]);
    expect(g.slot).toBe(PLOT_WIDTH / 2);
    expect(g.barWidth).toBeCloseTo((PLOT_WIDTH / 2) * 0.6);
    expect(g.xCenter(0)).toBe(MARGIN.left + PLOT_WIDTH / 4);
    expect(g.xCenter(1)).toBe(MARGIN.left + (3 * PLOT_WIDTH) / 4);
  });

  it("puts zero on the baseline and each axis's top at the plot's top", () => {
    const g = chartGeometry([day("2026-11-01", "100.00", "25.000")]);
    expect(g.yAmount(0)).toBe(BASELINE);
    expect(g.yAmount(g.amountScale.max)).toBe(MARGIN.top);
    expect(g.yGallons(g.gallonsScale.max)).toBe(BASELINE - PLOT_HEIGHT);
    expect(g.amountScale.max).toBeGreaterThanOrEqual(100);
  });

  it("draws the gallons line through each day's centre", () => {
    const g = chartGeometry([day("2026-11-01", "0.00", "0.000"), day("2026-11-02", "0.00", "0.000")]);
    expect(g.linePoints).toBe(
      `${g.xCenter(0).toFixed(1)},${BASELINE.toFixed(1)} ${g.xCenter(1).toFixed(1)},${BASELINE.toFixed(1)}`,
    );
  });

  it("has one slot of the whole width without days", () => {
    const g = chartGeometry([]);
    expect(g.slot).toBe(PLOT_WIDTH);
    expect(g.linePoints).toBe("");
  });
});
