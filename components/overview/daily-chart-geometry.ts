import { formatDay } from "@/lib/format/dates";
import { formatCompactMoney, formatCompactNumber } from "@/lib/format/numbers";
import type { SummaryDay } from "@/lib/model";

import { type AxisScale, axisScale, fittingLabelIndexes, ticks } from "./chart-scale";

/**
 * The chart is drawn in its box's own pixels (one SVG unit = one CSS px, measured by a ResizeObserver), so its text
 * stays AXIS_FONT_PX at every width instead of scaling with a viewBox (issue 26 item 1: 4–5 px on a phone, 18 px on a
 * desktop); what changes with the width is how many day labels fit.
 */
export interface ChartSize {
  width: number;
  height: number;
}

/** What the server's HTML and the hydrating render draw, before the box is measured (the same on both: no mismatch). */
export const DEFAULT_CHART_SIZE: ChartSize = { width: 720, height: 288 };
/** The box's height, reserved by the box and by the card's skeleton alike, so drawing the chart moves nothing. */
export const CHART_BOX_CLASSES = "h-64 sm:h-72 lg:h-80";
export const AXIS_FONT_PX = 12;
/**
 * A text's width guessed from its length: Inter's widest common glyphs (capitals, digits) are about 0.6–0.7 em, so
 * 0.65 em a character rarely underestimates; an overestimate only leaves a label out or some margin unused.
 */
const CHARACTER_EM = 0.65;
/** The band of the rotated axis name at either side ("Spend (USD)", "Gallons"), centred AXIS_NAME_INSET in. */
const AXIS_NAME_BAND = 24;
export const AXIS_NAME_INSET = 12;
/** Between a y tick's label and the plot. */
export const TICK_LABEL_GAP = 8;
/** The least space between two day labels. */
const X_LABEL_GAP = 12;
/** The least height between two y ticks: their 12 px labels then keep at least this much minus one line apart. */
const MIN_Y_TICK_SPACING = 40;
const MAX_Y_TICKS = 5;
const MIN_Y_TICKS = 2;
const MARGIN_TOP = 12;
/** Below the plot: the day labels' line; their baseline sits X_LABEL_OFFSET under the axis. */
const MARGIN_BOTTOM = 32;
export const X_LABEL_OFFSET = 22;
const BAR_SHARE = 0.6;

export interface Tick {
  value: number;
  y: number;
  label: string;
}

export interface DayLabel {
  index: number;
  x: number;
  label: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  plotWidth: number;
  plotHeight: number;
  /** The y of the x axis (the plot's bottom). */
  baseline: number;
  /** Each day's spend and gallons as numbers: only to place them on screen (sums stay exact elsewhere). */
  amounts: number[];
  gallons: number[];
  amountScale: AxisScale;
  gallonsScale: AxisScale;
  /** Spend ticks (left axis, with the grid) and gallons ticks (right axis). */
  amountTicks: Tick[];
  gallonsTicks: Tick[];
  /** The days labelled under the axis: as many as fit without touching, the last day always. */
  dayLabels: DayLabel[];
  /** The width of one day's slot, and of its bar. */
  slot: number;
  barWidth: number;
  xCenter: (index: number) => number;
  yAmount: (value: number) => number;
  yGallons: (value: number) => number;
  /** The gallons line, as an SVG polyline's points. */
  linePoints: string;
}

/** The width a label of AXIS_FONT_PX takes, guessed (see CHARACTER_EM). */
export function estimateTextWidth(text: string): number {
  return text.length * AXIS_FONT_PX * CHARACTER_EM;
}

/** How many y ticks a plot of this height holds with MIN_Y_TICK_SPACING between them. */
export function maxYTicks(plotHeight: number): number {
  return Math.max(MIN_Y_TICKS, Math.min(MAX_Y_TICKS, Math.floor(plotHeight / MIN_Y_TICK_SPACING)));
}

/** Where the daily chart's bars, line and labels go in a box of `size`: spend on the left axis, gallons on the right. */
export function chartGeometry(daily: readonly SummaryDay[], size: ChartSize = DEFAULT_CHART_SIZE): ChartGeometry {
  const { width, height } = size;
  const plotHeight = Math.max(1, height - MARGIN_TOP - MARGIN_BOTTOM);
  const baseline = MARGIN_TOP + plotHeight;
  const amounts = daily.map((day) => Number(day.amount));
  const gallons = daily.map((day) => Number(day.gallons));
  const yTicks = maxYTicks(plotHeight);
  const amountScale = axisScale(Math.max(0, ...amounts), yTicks);
  const gallonsScale = axisScale(Math.max(0, ...gallons), yTicks);
  const yAmount = (value: number) => baseline - (value / amountScale.max) * plotHeight;
  const yGallons = (value: number) => baseline - (value / gallonsScale.max) * plotHeight;
  const amountTicks = ticks(amountScale).map((value) => ({
    value,
    y: yAmount(value),
    label: formatCompactMoney(value),
  }));
  const gallonsTicks = ticks(gallonsScale).map((value) => ({
    value,
    y: yGallons(value),
    label: formatCompactNumber(value),
  }));
  // Each side is as wide as its longest tick label needs, plus the axis name's band.
  const sideFor = (labels: readonly Tick[]) =>
    AXIS_NAME_BAND + Math.ceil(Math.max(0, ...labels.map((tick) => estimateTextWidth(tick.label)))) + TICK_LABEL_GAP;
  const margin = { top: MARGIN_TOP, right: sideFor(gallonsTicks), bottom: MARGIN_BOTTOM, left: sideFor(amountTicks) };
  const plotWidth = Math.max(1, width - margin.left - margin.right);
  const slot = daily.length === 0 ? plotWidth : plotWidth / daily.length;
  const xCenter = (index: number) => margin.left + slot * (index + 0.5);
  const labels = daily.map((day) => formatDay(day.date));
  const labelWidth = Math.max(0, ...labels.map(estimateTextWidth));
  const dayLabels = fittingLabelIndexes(daily.length, slot, labelWidth + X_LABEL_GAP).map((index) => ({
    index,
    x: xCenter(index),
    label: labels[index] ?? "",
  }));
  const linePoints = gallons
    .map((value, index) => `${xCenter(index).toFixed(1)},${yGallons(value).toFixed(1)}`)
    .join(" ");
  return {
    width,
    height,
    margin,
    plotWidth,
    plotHeight,
    baseline,
    amounts,
    gallons,
    amountScale,
    gallonsScale,
    amountTicks,
    gallonsTicks,
    dayLabels,
    slot,
    barWidth: slot * BAR_SHARE,
    xCenter,
    yAmount,
    yGallons,
    linePoints,
  };
}
