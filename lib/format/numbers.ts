import type { Money, UnitPrice, Volume } from "@/lib/model";

import { onFirstUse } from "./on-first-use";

/**
 * Figures for people (en-US): the model's exact decimal strings, counts, price ranges. `Intl.NumberFormat` formats a
 * numeric string exactly (no float on the way), so "1234567.895" is never rounded as a double would be.
 */
const LOCALE = "en-US";

function lazyFormat(options?: Intl.NumberFormatOptions): () => Intl.NumberFormat {
  return onFirstUse(() => new Intl.NumberFormat(LOCALE, options));
}

const countFormat = lazyFormat();
const moneyFormat = lazyFormat({ style: "currency", currency: "USD" });
const unitPriceFormat = lazyFormat({
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 3,
  maximumFractionDigits: 3,
});
const gallonsFormat = lazyFormat({ minimumFractionDigits: 3, maximumFractionDigits: 3 });

const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

function asNumericLiteral(value: string): Intl.StringNumericLiteral {
  if (!DECIMAL_PATTERN.test(value)) throw new RangeError(`not a decimal: ${value}`);
  return value as Intl.StringNumericLiteral;
}

export function formatCount(value: number): string {
  return countFormat().format(value);
}

/** "1 fill", "1,234 fills": a count with its noun, singular only for exactly one. */
export function formatCountOf(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** "$1,234.50" */
export function formatMoney(value: Money): string {
  return moneyFormat().format(asNumericLiteral(value));
}

/** "$3.899" */
export function formatUnitPrice(value: UnitPrice): string {
  return unitPriceFormat().format(asNumericLiteral(value));
}

/** "1,234.567": the unit belongs in the label or column heading ("Gallons"), which keeps figures narrow. */
export function formatGallons(value: Volume): string {
  return gallonsFormat().format(asNumericLiteral(value));
}

/** "$3.459–$3.519" for a legend class (one price when both ends agree). Prices are dollars per gallon, as numbers. */
export function formatPriceRange(min: number, max: number): string {
  return min === max
    ? unitPriceFormat().format(min)
    : `${unitPriceFormat().format(min)}–${unitPriceFormat().format(max)}`;
}

/** The formats of formatDecimal, one per (min, max) digits, each built on its first use. */
const decimalFormats = new Map<string, Intl.NumberFormat>();

/**
 * "1,092.4" (one digit): a computed number (miles, gallons of a plan, a percentage) rounded to `maxDigits` decimals,
 * grouped; fewer decimals down to `minDigits` when they are zeros. The unit goes beside it or in the heading.
 */
export function formatDecimal(value: number, maxDigits: number, minDigits = maxDigits): string {
  const key = `${String(minDigits)}-${String(maxDigits)}`;
  let format = decimalFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits });
    decimalFormats.set(key, format);
  }
  // `+ 0` turns −0 into 0 ("-0.0" means nothing to a person).
  return format.format(value + 0);
}

/** "$1,234.50" from dollars computed as a number; what rounds to no cent reads "$0.00", never "-$0.00". */
export function formatDollars(dollars: number): string {
  return formatMoney((Math.abs(dollars) < 0.005 ? 0 : dollars).toFixed(2));
}

/** "$3.899" from dollars per gallon computed as a number (an average, an effective price). */
export function formatDollarsPerGallon(dollars: number): string {
  return unitPriceFormat().format(dollars + 0);
}

const coordinateFormat = lazyFormat({ minimumFractionDigits: 4, maximumFractionDigits: 4, useGrouping: false });

/** "35.2220, -101.8313": a point where it has no place name (four decimals, about 11 m). */
export function formatCoordinates(point: { lat: number; lng: number }): string {
  return `${coordinateFormat().format(point.lat + 0)}, ${coordinateFormat().format(point.lng + 0)}`;
}

const compactMoneyFormat = lazyFormat({
  style: "currency",
  currency: "USD",
  notation: "compact",
  // Without the minimum, USD's two decimals make it one: "$5.0K", "$0.0".
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
const compactNumberFormat = lazyFormat({ notation: "compact", maximumFractionDigits: 1 });

/** "$5K", "$1.2M": a chart's axis. */
export function formatCompactMoney(dollars: number): string {
  return compactMoneyFormat().format(dollars);
}

/** "850", "1.2K": a chart's axis. */
export function formatCompactNumber(value: number): string {
  return compactNumberFormat().format(value);
}
