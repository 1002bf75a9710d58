import { describe, expect, it } from "vitest";

import type { SummaryDay } from "@/lib/model";

import {
  AXIS_FONT_PX,
  type ChartGeometry,
  chartGeometry,
  DEFAULT_CHART_SIZE,
  estimateTextWidth,
  maxYTicks,
  TICK_LABEL_GAP,
} from "./daily-chart-geometry";

const day = (date: string, amount: string, gallons: string): SummaryDay => ({ date, amount, gallons, transactions: 1 });

/** `count` days from 2026-10-30 on, spend growing to about $18,000 a day. */
function days(count: number): SummaryDay[] {
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(2026, 9, 30 + i)).toISOString().slice(0, 10);
    return day(date, (600 * (i + 1)).toFixed(2), (150 * (i + 1)).toFixed(3));
  });
}

/** The chart boxes of the overview's card at 390, 768, 1280 and 1920 px wide (the page's and card's padding off). */
const BOX_WIDTHS = [316, 678, 1190, 1190] as const;

/** The horizontal extents of the day labels, as a person would see them if the estimate holds. */
function labelExtents(g: ChartGeometry): [number, number][] {
  return g.dayLabels.map((l) => [l.x - estimateTextWidth(l.label) / 2, l.x + estimateTextWidth(l.label) / 2]);
}

describe("chartGeometry in the box's own pixels", () => {
  it("splits the plot into one slot per day, bars centred in them", () => {
    const g = chartGeometry([day("2026-11-01", "100.00", "25.000"), day("2026-11-02", "50.00", "10.000")], {
      width: 600,
      height: 300,
    });
    expect(g.plotWidth).toBe(600 - g.margin.left - g.margin.right);
    expect(g.slot).toBe(g.plotWidth / 2);
    expect(g.barWidth).toBeCloseTo((g.plotWidth / 2) * 0.6);
    expect(g.xCenter(0)).toBe(g.margin.left + g.plotWidth / 4);
    expect(g.xCenter(1)).toBe(g.margin.left + (3 * g.plotWidth) / 4);
  });

  it("puts zero on the baseline and each axis's top at the plot's top", () => {
    const g = chartGeometry([day("2026-11-01", "100.00", "25.000")], { width: 400, height: 256 });
    expect(g.baseline).toBe(g.margin.top + g.plotHeight);
    expect(g.baseline).toBeLessThan(256);
    expect(g.yAmount(0)).toBe(g.baseline);
    expect(g.yAmount(g.amountScale.max)).toBe(g.margin.top);
    expect(g.yGallons(g.gallonsScale.max)).toBe(g.baseline - g.plotHeight);
    expect(g.amountScale.max).toBeGreaterThanOrEqual(100);
  });

  it("draws the gallons line through each day's centre", () => {
    const g = chartGeometry([day("2026-11-01", "0.00", "0.000"), day("2026-11-02", "0.00", "0.000")]);
    expect(g.linePoints).toBe(
      `${g.xCenter(0).toFixed(1)},${g.baseline.toFixed(1)} ${g.xCenter(1).toFixed(1)},${g.baseline.toFixed(1)}`,
    );
  });

  it("has one slot of the whole width without days, and no labels", () => {
    const g = chartGeometry([]);
    expect(g.slot).toBe(g.plotWidth);
    expect(g.linePoints).toBe("");
    expect(g.dayLabels).toEqual([]);
    expect(g.width).toBe(DEFAULT_CHART_SIZE.width);
  });

  it("leaves each side room for its longest tick label and the axis name", () => {
    const g = chartGeometry(days(30), { width: 1190, height: 320 });
    const longest = (labels: { label: string }[]) => Math.max(...labels.map((t) => estimateTextWidth(t.label)));
    expect(g.amountTicks.map((t) => t.label)).toContain("$20K");
    expect(g.margin.left).toBeGreaterThanOrEqual(longest(g.amountTicks) + TICK_LABEL_GAP + AXIS_FONT_PX * 1.5);
    expect(g.margin.right).toBeGreaterThanOrEqual(longest(g.gallonsTicks) + TICK_LABEL_GAP + AXIS_FONT_PX * 1.5);
  });
});

describe("tick thinning", () => {
  it.each(BOX_WIDTHS.map((width) => [width]))(
    "labels as many days as fit %i px without two touching, the last day always",
    (width) => {
      for (const count of [7, 30, 62, 92]) {
        const g = chartGeometry(days(count), { width, height: 288 });
        const extents = labelExtents(g);
        for (let i = 1; i < extents.length; i += 1)
          expect((extents[i]?.[0] ?? 0) - (extents[i - 1]?.[1] ?? 0)).toBeGreaterThanOrEqual(AXIS_FONT_PX - 1e-6);
        expect(g.dayLabels.at(-1)?.index).toBe(count - 1);
        // Inside the drawing at both ends.
        expect(extents[0]?.[0]).toBeGreaterThanOrEqual(0);
        expect(extents.at(-1)?.[1]).toBeLessThanOrEqual(width);
      }
    },
  );

  it("labels more days on a wider chart, and every day of a short week where there is room", () => {
    const phone = chartGeometry(days(30), { width: 316, height: 256 });
    const desktop = chartGeometry(days(30), { width: 1190, height: 320 });
    expect(phone.dayLabels.length).toBeGreaterThanOrEqual(2);
    expect(phone.dayLabels.length).toBeLessThan(desktop.dayLabels.length);
    expect(chartGeometry(days(7), { width: 1190, height: 320 }).dayLabels.map((l) => l.index)).toEqual([
      0, 1, 2, 3, 4, 5, 6,
    ]);
  });

  it("spaces the y ticks at least 40 px apart, 2 to 5 of them", () => {
    expect(maxYTicks(100)).toBe(2);
    expect(maxYTicks(212)).toBe(5);
    expect(maxYTicks(10_000)).toBe(5);
    for (const height of [160, 256, 288, 320, 480]) {
      const g = chartGeometry(days(30), { width: 678, height });
      const ys = g.amountTicks.map((t) => t.y);
      for (let i = 1; i < ys.length; i += 1) expect((ys[i - 1] ?? 0) - (ys[i] ?? 0)).toBeGreaterThanOrEqual(40 - 1e-6);
      expect(g.amountTicks.length).toBeGreaterThanOrEqual(2);
    }
  });
});
