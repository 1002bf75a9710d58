/**
 * Axis helpers for the daily chart (daily-chart-geometry). The data stay exact decimal strings; each one is turned into a number only to
 * place it on screen (no sums of floats anywhere).
 */

export interface AxisScale {
  /** The top of the axis: `count` steps. */
  max: number;
  /** The value between two ticks: 1, 2, 2.5 or 5 times a power of ten. */
  step: number;
  /** How many steps from 0 to `max` (at most the count asked for). */
  count: number;
}

const NICE_STEPS = [1, 2, 2.5, 5, 10] as const;

/** An axis from 0 covering `value` in at most `maxTicks` "nice" steps (round labels); one step of 1 for an empty series. */
export function axisScale(value: number, maxTicks: number): AxisScale {
  if (!(value > 0) || !Number.isFinite(value)) return { max: 1, step: 1, count: 1 };
  const rough = value / maxTicks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = (NICE_STEPS.find((candidate) => candidate * power >= rough * (1 - 1e-12)) ?? 10) * power;
  const count = Math.max(1, Math.ceil(value / step - 1e-9));
  return { max: step * count, step, count };
}

/** The tick values of an axis, from 0 to its max. */
export function ticks(scale: AxisScale): number[] {
  return Array.from({ length: scale.count + 1 }, (_, index) => scale.step * index);
}

/**
 * Indexes of the day labels to print on the x axis, the last day always: every `step`-th day counting back from it,
 * `step` the fewest slots that give each label `needed` px (its width and a gap), so no two labels ever touch.
 */
export function fittingLabelIndexes(length: number, slot: number, needed: number): number[] {
  if (length <= 0) return [];
  const step = slot > 0 ? Math.max(1, Math.ceil(needed / slot - 1e-9)) : length;
  const indexes: number[] = [];
  for (let index = length - 1; index >= 0; index -= step) indexes.unshift(index);
  return indexes;
}
