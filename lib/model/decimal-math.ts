/**
 * Exact decimal arithmetic on decimal strings, in integer minor units (BigInt). No zod here, so browser code can
 * import it without pulling the schemas into its bundle.
 */

/** A decimal string with exactly `digits` fraction digits as an integer of minor units: ("12.50", 2) → 1250n. */
export function toMinorUnits(value: string, digits: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new RangeError(`not a decimal: ${value}`);
  const [, sign = "", whole = "0", fraction = ""] = match;
  if (fraction.length > digits) throw new RangeError(`${value} has more than ${String(digits)} fraction digits`);
  const units = BigInt(whole + fraction.padEnd(digits, "0"));
  return sign === "-" ? -units : units;
}

/** Minor units back to a decimal string with `digits` fraction digits. */
export function fromMinorUnits(units: bigint, digits: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(digits);
  const body =
    digits === 0 ? abs.toString() : `${(abs / scale).toString()}.${(abs % scale).toString().padStart(digits, "0")}`;
  return negative ? `-${body}` : body;
}

/** Exact sum of decimal strings of the same scale. */
export function addDecimals(values: readonly string[], digits: number): string {
  return fromMinorUnits(
    values.reduce((sum, v) => sum + toMinorUnits(v, digits), 0n),
    digits,
  );
}

/**
 * Average price per gallon of a spend: amount / gallons to 3 decimals, rounded half up, in exact integer arithmetic
 * (cents and thousandths of a gallon in, thousandths of a dollar out). Null when no fuel was bought.
 */
export function averagePricePerGallon(amountCents: bigint, gallonsMilli: bigint): string | null {
  return gallonsMilli === 0n ? null : fromMinorUnits((amountCents * 10_000n + gallonsMilli / 2n) / gallonsMilli, 3);
}
