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
