import "server-only";

import { z } from "zod";

import { fromMinorUnits } from "../model/decimal";

/*
 * Field schemas for the upstream's values that need more than a type: exact decimals (a number or a decimal string,
 * to the model's fixed digits) and zoned timestamps (to UTC). Used by the reply schemas of upstream-schemas.ts.
 */

// ——— exact decimals ———

/** Fraction digits the model keeps (lib/model/decimal.ts). */
export const MONEY_DIGITS = 2;
export const VOLUME_DIGITS = 3;
export const UNIT_PRICE_DIGITS = 3;

/** A decimal string longer than this is not an amount, price or volume; refusing it bounds the BigInt work. */
const MAX_DECIMAL_TEXT_LENGTH = 40;
/** What the spec calls a decimal string: optional minus, digits, optional fraction. No exponent, sign "+" or blanks. */
const DECIMAL_STRING = /^(-?)(\d+)(?:\.(\d+))?$/;
/** What `String(n)` gives for a finite number: the decimal form, or the exponent form for very large or small ones. */
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * A JSON number or decimal string as a decimal string with exactly `digits` fraction digits, or null when it is
 * neither (NaN, ±Infinity, "", "abc", "1e3", " 1.5").
 *
 * No float arithmetic: a number is taken as the shortest text that round-trips it (`String(n)`, so 475.18 is
 * "475.18", never 475.17999…), exponent forms included (1e21, 1e-7 are converted exactly), and the rest is BigInt.
 * Rounding: half away from zero ("half up" on the magnitude), the commercial rule and the one the provider states
 * for its own amounts (gallons × price rounded half up to cents): 3.8495 → "3.850", -0.005 → "-0.01",
 * -0.004 → "0.00" (never "-0.00").
 */
export function normalizeDecimal(value: unknown, digits: number): string | null {
  let match: RegExpExecArray | null;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    match = NUMBER_TEXT.exec(String(value));
  } else if (typeof value === "string") {
    if (value.length > MAX_DECIMAL_TEXT_LENGTH) return null;
    match = DECIMAL_STRING.exec(value);
  } else {
    return null;
  }
  if (!match) return null;
  const [, sign = "", whole = "0", fraction = "", exponentText = "0"] = match;
  // value = ±coefficient × 10^exponent
  const coefficient = BigInt(whole + fraction);
  const exponent = Number(exponentText) - fraction.length;
  const shift = exponent + digits;
  let units: bigint;
  if (shift >= 0) {
    units = coefficient * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    const remainder = coefficient % divisor;
    units = coefficient / divisor + (remainder * 2n >= divisor ? 1n : 0n);
  }
  return fromMinorUnits(sign === "-" ? -units : units, digits);
}

const NOT_A_DECIMAL = "is not a number or decimal string";

/** An amount, price or volume the spec says may be a number or a decimal string; required. */
export const upstreamDecimal = (digits: number) =>
  z.unknown().transform((value, ctx) => {
    const normalized = normalizeDecimal(value, digits);
    if (normalized === null) {
      ctx.addIssue({ code: "custom", message: value === undefined ? "is missing" : NOT_A_DECIMAL });
      return z.NEVER;
    }
    return normalized;
  });

/**
 * Like `upstreamDecimal`, but null or absent is null. The `.optional()` before the transform matters: without it
 * zod reports an absent key ("nonoptional") before the transform sees it.
 */
export const optionalUpstreamDecimal = (digits: number) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null) return null;
      const normalized = normalizeDecimal(value, digits);
      if (normalized === null) {
        ctx.addIssue({ code: "custom", message: NOT_A_DECIMAL });
        return z.NEVER;
      }
      return normalized;
    });

// ——— timestamps ———

/**
 * ISO 8601 / RFC 3339 date and time with a zone: `Z` or an offset (`+05:30`, `-0600`, `+05`); seconds and fraction
 * optional. A time without a zone is refused: it names no instant.
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const MINUTES_PER_HOUR = 60;
const MS_PER_MINUTE = 60_000;
const MS_DIGITS = 3;
const MAX_OFFSET_HOURS = 23;

export interface UpstreamInstant {
  /** The instant in UTC, `toISOString()` form (milliseconds, Z). */
  at: string;
  /** The offset the text carried, in minutes east of UTC; null when it said Z. An explicit "+00:00" is 0. */
  offsetMinutes: number | null;
}

/** Parses a zoned timestamp, or null when it is not one (no zone, impossible date, not a string). */
export function parseTimestamp(value: unknown): UpstreamInstant | null {
  if (typeof value !== "string") return null;
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const [
    ,
    y = "",
    mo = "",
    d = "",
    h = "",
    mi = "",
    s = "0",
    fraction = "",
    zulu,
    offsetSign,
    offsetH = "0",
    offsetM = "0",
  ] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  // Sub-millisecond digits are truncated, not rounded, so an instant never moves into the next second or day.
  const ms = Number(fraction.slice(0, MS_DIGITS).padEnd(MS_DIGITS, "0"));
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  // Date.UTC silently rolls 2024-02-30 into March and 24:00 into the next day; a round trip catches both.
  const isRealDate =
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day &&
    local.getUTCHours() === hour &&
    local.getUTCMinutes() === minute &&
    local.getUTCSeconds() === second;
  if (!isRealDate) return null;
  if (zulu !== undefined) return { at: local.toISOString(), offsetMinutes: null };
  const hours = Number(offsetH);
  const minutes = Number(offsetM);
  if (hours > MAX_OFFSET_HOURS || minutes >= MINUTES_PER_HOUR) return null;
  const offsetMinutes = (offsetSign === "-" ? -1 : 1) * (hours * MINUTES_PER_HOUR + minutes);
  return {
    at: new Date(local.getTime() - offsetMinutes * MS_PER_MINUTE).toISOString(),
    // `|| 0` turns "-00:00" into 0 rather than -0.
    offsetMinutes: offsetMinutes || 0,
  };
}

const NOT_A_TIMESTAMP = "is not a date and time with a time zone (Z or an offset)";

export const upstreamTimestamp = z.unknown().transform((value, ctx) => {
  const instant = parseTimestamp(value);
  if (instant === null) {
    ctx.addIssue({ code: "custom", message: value === undefined ? "is missing" : NOT_A_TIMESTAMP });
    return z.NEVER;
  }
  return instant;
});

/** Like `upstreamTimestamp` (null or absent is null), reduced to the UTC instant. */
export const optionalUpstreamTimestamp = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === null) return null;
    const instant = parseTimestamp(value);
    if (instant === null) {
      ctx.addIssue({ code: "custom", message: NOT_A_TIMESTAMP });
      return z.NEVER;
    }
    return instant.at;
  });
