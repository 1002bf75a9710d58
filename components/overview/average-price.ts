import { fromMinorUnits, toMinorUnits } from "@/lib/model/decimal-math";
import type { Money, UnitPrice, Volume } from "@/lib/model";

const MONEY_DIGITS = 2;
const VOLUME_DIGITS = 3;
const UNIT_PRICE_DIGITS = 3;

/**
 * Average price per gallon = amount / gallons, to 3 decimals, rounded half away from zero, computed in integers
 * from the exact decimal strings (never floats). Null when there were no gallons.
 *
 * amount = cents / 100 and gallons = milligallons / 1000, so the price in thousandths of a dollar is
 * cents · 10^4 / milligallons.
 */
export function averagePricePerGallon(amount: Money, gallons: Volume): UnitPrice | null {
  const cents = toMinorUnits(amount, MONEY_DIGITS);
  const milligallons = toMinorUnits(gallons, VOLUME_DIGITS);
  if (milligallons === 0n) return null;
  const scale = 10n ** BigInt(UNIT_PRICE_DIGITS + VOLUME_DIGITS - MONEY_DIGITS);
  const numerator = abs(cents) * scale;
  const denominator = abs(milligallons);
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  const isNegative = cents < 0n !== milligallons < 0n;
  return fromMinorUnits(isNegative ? -rounded : rounded, UNIT_PRICE_DIGITS);
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
