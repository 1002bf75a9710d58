import "server-only";
import { z } from "zod";
import { fromMinorUnits } from "../model/decimal";
import { TRANSACTION_STATUSES } from "../model/transaction";

/*
 * Zod schemas of what the Fleet Fuel Customer API v1 sends, written from fleet-fuel-api-v1.md. Where the spec
 * documents a primary and an alternative shape, the schema here accepts both; where the two shapes differ as whole
 * objects (the account), there is one schema per shape and reshape.ts picks one before parsing, so an error names the
 * field of the shape the reply was actually trying to be.
 *
 * Field schemas normalise as they parse (decimals to the model's fixed digits, timestamps to UTC), so every issue
 * carries the path of the field concerned. Messages are the words after the field name: "<path> is missing".
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

// ——— small field helpers ———

const text = z.string().min(1);
/** A string the shape may leave out or send as null. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);
const optionalBoolean = z
  .boolean()
  .nullish()
  .transform((value) => value ?? null);
/** Latitude/longitude: a JSON number, or a numeric string for a provider that sends its numbers as text. */
const COORDINATE_STRING = /^-?\d+(?:\.\d+)?$/;
const coordinate = z.unknown().transform((value, ctx) => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && COORDINATE_STRING.test(value)) return Number(value);
  ctx.addIssue({ code: "custom", message: value === undefined ? "is missing" : "is not a number" });
  return z.NEVER;
});
/** `ok` is true on every successful reply that carries it; the alternative shapes may leave it out. */
const okFlag = z.literal(true).optional();

// ——— POST /auth ———

export const UpstreamAuthReply = z.object({
  ok: okFlag,
  access_token: text,
  /** `Bearer` per the spec; some servers write it in lower case. Anything else we could not send back. */
  token_type: z
    .string()
    .refine((value) => value.toLowerCase() === "bearer", { message: "is not Bearer" })
    .optional(),
  expires_in: z.number().int().nonnegative(),
  /** Alternative shape only. */
  scopes: z.array(z.string()).nullish(),
});
export type UpstreamAuthReply = z.output<typeof UpstreamAuthReply>;

// ——— GET /account-details ———

const UpstreamTotals30d = z.object({
  transactions: z.number().int().nonnegative(),
  gallons: upstreamDecimal(VOLUME_DIGITS),
  amount: upstreamDecimal(MONEY_DIGITS),
});

/** The active flag: `active` (primary) or `is_active` (alternative), whichever the reply has. */
const activeFlagFields = { active: z.boolean().optional(), is_active: z.boolean().optional() };

/** The flag under either spelling, preferring the shape's own; both missing is an issue named in that spelling. */
function pickActiveFlag(
  flags: { active?: boolean | undefined; is_active?: boolean | undefined },
  spelling: "active" | "is_active",
  ctx: z.RefinementCtx,
): boolean {
  const active = spelling === "active" ? (flags.active ?? flags.is_active) : (flags.is_active ?? flags.active);
  if (active !== undefined) return active;
  ctx.addIssue({ code: "custom", message: "is missing", path: [spelling] });
  return z.NEVER;
}

/** Primary: `{ok, customer: {id, name, code, active}, totals_30d}`. */
export const UpstreamAccountNested = z.object({
  ok: okFlag,
  customer: z
    .object({
      id: text,
      name: z.string(),
      code: optionalText,
      created_at: optionalUpstreamTimestamp,
      ...activeFlagFields,
    })
    .transform(({ active, is_active, ...customer }, ctx) => ({
      ...customer,
      active: pickActiveFlag({ active, is_active }, "active", ctx),
    })),
  totals_30d: UpstreamTotals30d.nullish(),
});
export type UpstreamAccountNested = z.output<typeof UpstreamAccountNested>;

/**
 * Alternative: flat `{id, name, fee_deduction_per_gallon, is_active, created_at}`. `fee_deduction_per_gallon` is
 * deliberately not read: the spec withholds it from customers, so it goes nowhere in the model.
 */
export const UpstreamAccountFlat = z
  .object({
    ok: okFlag,
    id: text,
    name: z.string(),
    code: optionalText,
    created_at: optionalUpstreamTimestamp,
    totals_30d: UpstreamTotals30d.nullish(),
    ...activeFlagFields,
  })
  .transform(({ active, is_active, ...account }, ctx) => ({
    ...account,
    active: pickActiveFlag({ active, is_active }, "is_active", ctx),
  }));
export type UpstreamAccountFlat = z.output<typeof UpstreamAccountFlat>;

// ——— transactions ———

const UpstreamDef = z.object({
  gallons: upstreamDecimal(VOLUME_DIGITS),
  amount: upstreamDecimal(MONEY_DIGITS),
  category: z.string(),
});

export const UpstreamTransactionItem = z.object({
  id: text,
  transaction_id: z.string(),
  transaction_at: upstreamTimestamp,
  status: z.enum(TRANSACTION_STATUSES),
  product: z.string(),
  gallons: upstreamDecimal(VOLUME_DIGITS),
  price_per_gallon: upstreamDecimal(UNIT_PRICE_DIGITS),
  amount: upstreamDecimal(MONEY_DIGITS),
  station: z.object({ id: text, name: z.string(), loc: z.string(), city: z.string(), state: z.string() }),
  driver: z.object({ id: text, name: z.string(), truck_id: optionalText }),
  card: z.object({ last4: z.string() }),
  def: UpstreamDef.nullish(),
});
export type UpstreamTransactionItem = z.output<typeof UpstreamTransactionItem>;

/**
 * The single transaction. Primary adds station address/zip, driver e-mail, card type, source, created/updated;
 * the alternative adds a carrier-side `audit` object instead. Each is optional, so one schema reads both.
 */
export const UpstreamTransactionDetail = UpstreamTransactionItem.extend({
  station: UpstreamTransactionItem.shape.station.extend({ address: optionalText, zip: optionalText }),
  driver: UpstreamTransactionItem.shape.driver.extend({ email: optionalText }),
  card: UpstreamTransactionItem.shape.card.extend({ type: optionalText }),
  source: optionalText,
  created_at: optionalUpstreamTimestamp,
  updated_at: optionalUpstreamTimestamp,
  audit: z.record(z.string(), z.unknown()).nullish(),
});
export type UpstreamTransactionDetail = z.output<typeof UpstreamTransactionDetail>;

// ——— locations ———

export const UpstreamStationItem = z.object({
  id: text,
  /** A string: it may have leading zeros, which a number would lose. */
  loc_num: z.string(),
  name: z.string(),
  brand: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  lat: coordinate,
  lng: coordinate,
  price: optionalUpstreamDecimal(UNIT_PRICE_DIGITS),
  price_updated_at: optionalUpstreamTimestamp,
});
export type UpstreamStationItem = z.output<typeof UpstreamStationItem>;

/**
 * The single station. Primary adds amenities, phone, `def_available`, zip and price; the alternative adds phone,
 * zip, amenities and `prices` per product (diesel, unleaded, def; def may be null).
 */
export const UpstreamStationDetail = UpstreamStationItem.extend({
  phone: optionalText,
  zip: optionalText,
  amenities: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
  def_available: optionalBoolean,
  prices: z.record(z.string(), optionalUpstreamDecimal(UNIT_PRICE_DIGITS)).nullish(),
});
export type UpstreamStationDetail = z.output<typeof UpstreamStationDetail>;

// ——— page envelope ———

export const upstreamPageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    ok: okFlag,
    data: z.object({
      page: z.number().int().min(1),
      limit: z.number().int().min(1),
      total: z.number().int().nonnegative(),
      pages: z.number().int().nonnegative(),
      items: z.array(item),
    }),
  });

// ——— errors ———

/** Primary error body: `{ok: false, error: "<code>", message}`. */
export const UpstreamErrorPrimary = z.object({
  ok: z.literal(false).optional(),
  error: z.string(),
  message: z.string().optional(),
});

/** Alternative error body: `{error: {code, message}}`. */
export const UpstreamErrorAlternative = z.object({
  error: z.object({ code: z.string(), message: z.string().optional() }),
});
