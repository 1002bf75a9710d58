import { formatMoney, formatUnitPrice } from "@/lib/format/numbers";

/**
 * The Route mode's figures as the page prints them (and its e2e spec expects them): computed numbers rounded to what a
 * dispatcher reads, through the project's formatters.
 */

/** "$1,234.50" */
export function routeMoney(dollars: number): string {
  return formatMoney((Math.abs(dollars) < 0.005 ? 0 : dollars).toFixed(2));
}

/** "$3.899" per gallon; "—" when there is none (lib/route's effective price where the truck would buy nothing). */
export function routeUnitPrice(dollarsPerGallon: number): string {
  return Number.isFinite(dollarsPerGallon) ? formatUnitPrice(dollarsPerGallon.toFixed(3)) : "—";
}

const tenths = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "1,092.4" gallons or miles: one decimal, the unit in the column heading. */
export function routeTenths(value: number): string {
  return tenths.format(value);
}
