/**
 * Exact decimal formatting of integer minor units. Nothing here goes through a float sum.
 */

/** Formats an integer count of 1/10^digits units as a decimal string, e.g. (123456, 3) → "123.456". */
function formatFixed(units: number | bigint, digits: number): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(digits, "0");
  const body = digits > 0 ? `${whole.toString()}.${fraction}` : whole.toString();
  return negative ? `-${body}` : body;
}

/** Dollars with 2 decimals from cents. */
export const formatCents = (cents: number | bigint): string => formatFixed(cents, 2);
/** Three decimals from thousandths (gallons, or dollars per gallon). */
export const formatMilli = (milli: number | bigint): string => formatFixed(milli, 3);

/** The JSON number for an integer of minor units. Exact for every value the sandbox stores (< 2^53). */
export function toNumber(units: number, digits: number): number {
  return Number(formatFixed(units, digits));
}

/** gallons (thousandths) × price (thousandths of a dollar) → cents, rounded half up. Integer arithmetic only. */
export function amountCents(gallonsMilli: number, priceMilli: number): number {
  const product = BigInt(gallonsMilli) * BigInt(priceMilli); // units of 1e-6 dollars
  return Number((product + 5000n) / 10000n);
}
