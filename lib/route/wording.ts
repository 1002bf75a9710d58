import { formatDecimal, formatDollars } from "@/lib/format/numbers";

/**
 * The one home of the route planner's sentences: each reason has one wording, used by the ranking's verdicts, the
 * plan's "why not" and the page alike (issue 25, item 5). Figures are printed as the page prints them: miles and
 * gallons to the tenth, dollars to the cent.
 */

/** "1,092.4": miles or gallons as the page prints them. */
function tenthsText(value: number): string {
  return formatDecimal(value, 1);
}

/** "$1,234.50", −$0.004 printed as "$0.00". */
function moneyText(dollars: number): string {
  return formatDollars(dollars);
}

/** "a" or "an" before a figure as it is read aloud: "an 8.2-mile gap", "an 11-mile gap", "a 65.0-mile gap". */
function article(figure: string): string {
  return /^(8|1[18](\D|$))/.test(figure) ? "an" : "a";
}

/** Where a verdict's gallons come from: the plan's purchase at that stop, or a full tank from what the truck has. */
export type GallonsBasis = "plan" | "full_tank";

/** The gallons a verdict is about, said with it: a saving means nothing without the amount it is on. */
function gallonsBasisText(gallons: number, basis: GallonsBasis): string {
  return basis === "plan"
    ? `on the ${tenthsText(gallons)} gal the plan buys here`
    : `on a full tank here (${tenthsText(gallons)} gal)`;
}

export const VERDICT = {
  baselineOnRoute: "baseline: the best stop on the route",
  baselineNearest: "baseline: the nearest stop to the route (none on it)",
  tankFull: "not worth it: the tank would still be full",
  /** A station dearer than the baseline at the pump, or at the same price, whose detour is no shorter. */
  noCheaper: "not worth it: no cheaper than the baseline",
  /** Only when a fill plan exists: it stops before the station. */
  beyondSeePlan: "beyond the fuel in the tank now: fill before it (see the plan)",
  /** No plan to refer to (none is possible, or none is made for the product). */
  beyondNoPlan: "beyond the fuel in the tank now: the truck must fill before it",
} as const;

export function worthText(netSavings: number, gallons: number, basis: GallonsBasis): string {
  return `worth it: saves ${moneyText(netSavings)} net ${gallonsBasisText(gallons, basis)}`;
}

/** Cheaper at the pump than the baseline, but its detour costs more than the lower price saves. */
export function detourCostsMoreText(gallons: number, basis: GallonsBasis): string {
  return `not worth it: the detour costs more than the lower price saves ${gallonsBasisText(gallons, basis)}`;
}

/** A stop of the plan the truck reaches only after an earlier stop: the plan's own figure, no comparison. */
export function planStopBeyondText(stopNumber: number, gallons: number): string {
  return `stop ${String(stopNumber)} of the plan, after filling before it: it buys ${tenthsText(gallons)} gal here`;
}

/**
 * Why no fill plan exists, in miles: the stretch the truck cannot cross. `fromMile` null: from the start, on the fuel
 * now; `toMile` null: to the end of the route.
 */
export interface ReachGap {
  fromMile: number | null;
  toMile: number | null;
  totalMiles: number;
  /** The least a truck must drive over the stretch, the detours to the stations at its ends included. */
  neededMiles: number;
  /** What it can drive above its reserve there: a full tank after a stop, or the fuel now from the start. */
  rangeMiles: number;
  rangeGallons: number;
  mpg: number;
}

const mileText = (m: number): string => `mile ${tenthsText(m)}`;

export function gapText(gap: ReachGap): string {
  const from = gap.fromMile ?? 0;
  const to = gap.toMile ?? gap.totalMiles;
  const gapMiles = tenthsText(to - from);
  const ends =
    gap.fromMile === null
      ? gap.toMile === null
        ? "between the start and the end of the route with no station in the corridor"
        : `between the start and the first station in the corridor (${mileText(to)})`
      : gap.toMile === null
        ? `between the last station within reach (${mileText(from)}) and the end of the route (${mileText(to)})`
        : `between the stations at ${mileText(from)} and ${mileText(to)}`;
  const oneStation = gap.fromMile === null || gap.toMile === null;
  const detours =
    gap.neededMiles - (to - from) > 0.05
      ? ` (${tenthsText(gap.neededMiles)} mi with ${oneStation ? "the detour" : "the detours to them"})`
      : "";
  const range =
    gap.fromMile === null
      ? `the fuel now takes the truck ${tenthsText(gap.rangeMiles)} mi at ${tenthsText(gap.mpg)} mpg (${tenthsText(gap.rangeGallons)} gal above the reserve)`
      : `your range is ${tenthsText(gap.rangeMiles)} mi at ${tenthsText(gap.mpg)} mpg (${tenthsText(gap.rangeGallons)} gal above the reserve)`;
  return `${article(gapMiles)} ${gapMiles}-mile gap ${ends}${detours}; ${range}`;
}

export function underReserveText(fuelNowGallons: number, reserveGallons: number): string {
  return `the truck starts under its reserve (${tenthsText(fuelNowGallons)} gal, reserve ${tenthsText(reserveGallons)} gal)`;
}
