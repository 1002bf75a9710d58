import { formatCount, formatDecimal, formatDollars, formatDollarsPerGallon } from "@/lib/format/numbers";

/**
 * The Route mode's figures as the page prints them (and its e2e spec expects them): computed numbers rounded to what a
 * dispatcher reads, through the project's formatters.
 */

/** "$1,234.50" */
export function routeMoney(dollars: number): string {
  return formatDollars(dollars);
}

/** "$1,234.50" from whole cents (lib/route's shownPlan: figures rounded once, so their sums hold as printed). */
export function routeCents(cents: number): string {
  return formatDollars(cents / 100);
}

/** "$3.899" per gallon; "—" when there is none (lib/route's effective price where the truck would buy nothing). */
export function routeUnitPrice(dollarsPerGallon: number): string {
  return Number.isFinite(dollarsPerGallon) ? formatDollarsPerGallon(dollarsPerGallon) : "—";
}

/** "1,092.4" gallons or miles: one decimal, the unit in the column heading. */
export function routeTenths(value: number): string {
  return formatDecimal(value, 1);
}

/** The sentence in place of the fill plan when the product is DEF. */
export const NO_DEF_PLAN = "No fill plan for DEF: the plan is for the truck's fuel.";

/**
 * How much of the corridor a plan over checked prices covers: "over 25 of 80 corridor stations checked so far" while
 * some are not checked yet (the plan may change as more are); null once every one is (or for diesel, priced by the
 * catalog).
 */
export function planCoverageText(coverage: { checked: number; total: number } | null): string | null {
  if (coverage === null || coverage.checked >= coverage.total) return null;
  return `over ${formatCount(coverage.checked)} of ${formatCount(coverage.total)} corridor stations checked so far`;
}
