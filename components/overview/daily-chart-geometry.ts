import type { SummaryDay } from "@/lib/model";

import { type AxisScale, axisScale } from "./chart-scale";

// The drawing's own coordinates; the SVG scales to its container through the viewBox.
export const WIDTH = 720;
export const HEIGHT = 280;
export const MARGIN = { top: 16, right: 64, bottom: 40, left: 64 } as const;
export const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
export const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
/** The y of the x axis (the plot's bottom). */
export const BASELINE = MARGIN.top + PLOT_HEIGHT;
const MAX_TICKS = 4;
const BAR_SHARE = 0.6;

export interface ChartGeometry {
  /** Each day's spend and gallons as numbers: only to place them on screen (sums stay exact elsewhere). */
  amounts: number[];
  gallons: number[];
  amountScale: AxisScale;
  gallonsScale: AxisScale;
  /** The width of one day's slot, and of its bar. */
  slot: number;
  barWidth: number;
  xCenter: (index: number) => number;
  yAmount: (value: number) => number;
  yGallons: (value: number) => number;
  /** The gallons line, as an SVG polyline's points. */
  linePoints: string;
}

/** Where the daily chart's bars, line and ticks go: spend on the left axis, gallons on the right one. */
export function chartGeometry(daily: readonly SummaryDay[]): ChartGeometry {
  const amounts = daily.map((day) => Number(day.amount));
  const gallons = daily.map((day) => Number(day.gallons));
  const amountScale = axisScale(Math.max(0, ...amounts), MAX_TICKS);
  const gallonsScale = axisScale(Math.max(0, ...gallons), MAX_TICKS);
  const slot = daily.length === 0 ? PLOT_WIDTH : PLOT_WIDTH / daily.length;
  const xCenter = (index: number) => MARGIN.left + slot * (index + 0.5);
  const yAmount = (value: number) => BASELINE - (value / amountScale.max) * PLOT_HEIGHT;
  const yGallons = (value: number) => BASELINE - (value / gallonsScale.max) * PLOT_HEIGHT;
  const linePoints = gallons
    .map((value, index) => `${xCenter(index).toFixed(1)},${yGallons(value).toFixed(1)}`)
    .join(" ");
  return {
    amounts,
    gallons,
    amountScale,
    gallonsScale,
    slot,
    barWidth: slot * BAR_SHARE,
    xCenter,
    yAmount,
    yGallons,
    linePoints,
  };
}
