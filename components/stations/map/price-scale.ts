import { ascending, bisectRight, quantileSorted } from "d3-array";

import { interpolateViridis } from "./viridis";

/**
 * The map's colour scale: quantile classes of the prices currently shown (relative: the cheapest seventh of what is on
 * screen is always class 1, whatever the market does), coloured from viridis, which stays ordered for the common
 * colour-vision deficiencies and in greyscale. Classes that would be empty (ties, few stations, all one price) are
 * merged away, so the legend never prints a range that no station has.
 */

export const PRICE_CLASS_COUNT = 7;
/**
 * Viridis from dark violet (cheapest) to yellow (priciest). The far yellow end is left out: it is too faint on a light
 * basemap even with an outline.
 */
const PALETTE_START = 0;
const PALETTE_END = 0.9;

interface PriceClass {
  /** 0 = cheapest. */
  index: number;
  /** 1-based label printed in the legend and the popup ("class 1 of 7"), so colour is never the only cue. */
  label: string;
  /** Lowest and highest price (dollars per gallon) of the stations in this class. */
  min: number;
  max: number;
  count: number;
  color: string;
}

export interface PriceScale {
  classes: readonly PriceClass[];
  /** The class index of a price, or -1 for a station without a price. */
  classOf: (price: number | null) => number;
}

function paletteColor(index: number, classCount: number): string {
  const t =
    classCount <= 1 ? PALETTE_START : PALETTE_START + ((PALETTE_END - PALETTE_START) * index) / (classCount - 1);
  return interpolateViridis(t);
}

/** Builds the scale from the prices of the stations shown (nulls are ignored: no price, no class). */
export function buildPriceScale(
  prices: readonly (number | null)[],
  classCount: number = PRICE_CLASS_COUNT,
): PriceScale {
  const values = prices.filter((p): p is number => p !== null && Number.isFinite(p));
  if (values.length === 0) return { classes: [], classOf: () => -1 };

  // The thresholds of a quantile scale (what d3-scale's scaleQuantile computes: the i/n quantiles of the sorted prices),
  // from d3-array alone — d3-scale's module would bring its time and number formats into the page for nothing.
  const sorted = [...values].sort(ascending);
  const quantiles = Array.from(
    { length: classCount - 1 },
    (_, i) => quantileSorted(sorted, (i + 1) / classCount) ?? Number.NaN,
  );
  // Equal thresholds (ties) would make empty classes: keep each threshold once. A price equal to a threshold goes to
  // the class above it, as d3's quantile scale does (bisectRight).
  const thresholds = [...new Set(quantiles)].sort(ascending);
  const rawClassOf = (price: number): number => bisectRight(thresholds, price);

  const stats = Array.from({ length: thresholds.length + 1 }, () => ({ min: Infinity, max: -Infinity, count: 0 }));
  for (const price of values) {
    const s = stats[rawClassOf(price)];
    if (s === undefined) continue;
    s.count++;
    if (price < s.min) s.min = price;
    if (price > s.max) s.max = price;
  }
  // Renumber without the empty classes (a threshold below every price leaves class 0 empty).
  const remap = new Map<number, number>();
  const kept = stats.flatMap((s, raw) => {
    if (s.count === 0) return [];
    remap.set(raw, remap.size);
    return [s];
  });
  const classes = kept.map((s, index): PriceClass => ({
    index,
    label: String(index + 1),
    min: s.min,
    max: s.max,
    count: s.count,
    color: paletteColor(index, kept.length),
  }));
  return {
    classes,
    classOf: (price) => (price === null || !Number.isFinite(price) ? -1 : (remap.get(rawClassOf(price)) ?? -1)),
  };
}
