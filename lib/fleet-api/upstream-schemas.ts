import "server-only";

import { z } from "zod";

import { TRANSACTION_STATUSES } from "../model/transaction";
import {
  MONEY_DIGITS,
  optionalUpstreamDecimal,
  optionalUpstreamTimestamp,
  UNIT_PRICE_DIGITS,
  upstreamDecimal,
  upstreamTimestamp,
  VOLUME_DIGITS,
} from "./upstream-values";

/*
 * Zod schemas of what the Fleet Fuel Customer API v1 sends, written from fleet-fuel-api-v1.md. Where the spec
 * documents a primary and an alternative shape, the schema here accepts both; where the two shapes differ as whole
 * objects (the account), there is one schema per shape and reshape.ts picks one before parsing, so an error names the
 * field of the shape the reply was actually trying to be.
 *
 * Field schemas normalise as they parse (decimals to the model's fixed digits, timestamps to UTC), so every issue
 * carries the path of the field concerned. Messages are the words after the field name: "<path> is missing".
 */

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
