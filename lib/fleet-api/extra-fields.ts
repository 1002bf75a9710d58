import "server-only";

import type { Extra } from "@/lib/model";

import { isRecord } from "./read-reply";

/**
 * Fields the spec withholds from customers. Our model has no place for them, and they are also removed from `extra`
 * and `audit` wherever they turn up, so a provider that leaks one cannot make us show it.
 */
const WITHHELD_FIELDS: ReadonlySet<string> = new Set(["fee_deduction_per_gallon"]);

/** The fields a detail maps, per object; everything else the upstream sent goes to `extra`. */
interface MappedFields {
  top: ReadonlySet<string>;
  /** Nested objects the model maps field by field: their unmapped fields go to `extra` as "parent.field". */
  nested: Readonly<Record<string, ReadonlySet<string>>>;
}

/** `ok` belongs to the envelope, not the resource (a bare resource may still carry it). */
const ENVELOPE_FIELDS = ["ok"];

export const TRANSACTION_DETAIL_FIELDS: MappedFields = {
  top: new Set([
    ...ENVELOPE_FIELDS,
    "id",
    "transaction_id",
    "transaction_at",
    "status",
    "product",
    "gallons",
    "price_per_gallon",
    "amount",
    "station",
    "driver",
    "card",
    "def",
    "source",
    "created_at",
    "updated_at",
    "audit",
  ]),
  nested: {
    station: new Set(["id", "name", "loc", "city", "state", "address", "zip"]),
    driver: new Set(["id", "name", "truck_id", "email"]),
    card: new Set(["last4", "type"]),
    def: new Set(["gallons", "amount", "category"]),
  },
};

export const STATION_DETAIL_FIELDS: MappedFields = {
  top: new Set([
    ...ENVELOPE_FIELDS,
    "id",
    "loc_num",
    "name",
    "brand",
    "address",
    "city",
    "state",
    "lat",
    "lng",
    "price",
    "price_updated_at",
    "phone",
    "zip",
    "amenities",
    "def_available",
    "prices",
  ]),
  nested: {},
};

/**
 * Unmapped fields of a detail (top level as sent, nested ones as "parent.field"), for detail views that show them
 * generically. These go to the browser, so what must not is removed at any depth: the fields the spec withholds,
 * anything named like a secret or a full card number, and values that look like a card number (13–19 digits).
 */
export function collectExtra(resource: unknown, mapped: MappedFields): Extra {
  const extra: Extra = {};
  if (!isRecord(resource)) return extra;
  for (const [key, value] of Object.entries(resource)) {
    if (isWithheldKey(key)) continue;
    const nestedMapped = Object.hasOwn(mapped.nested, key) ? mapped.nested[key] : undefined; // never the prototype's
    if (nestedMapped !== undefined && isRecord(value)) {
      for (const [innerKey, innerValue] of Object.entries(value)) {
        if (nestedMapped.has(innerKey) || isWithheldKey(innerKey)) continue;
        setOwn(extra, `${key}.${innerKey}`, withoutWithheld(innerValue));
      }
      continue;
    }
    if (!mapped.top.has(key)) setOwn(extra, key, withoutWithheld(value));
  }
  return extra;
}

const SENSITIVE_KEY =
  /(?:^|[_.-])(?:pan|card_?number|cardnumber|cvv|cvc|pin|secret|password|token|access_token|authorization)$/i;
const CARD_NUMBER_LIKE = /^\d(?:[ -]?\d){12,18}$/;

function isWithheldKey(key: string): boolean {
  return WITHHELD_FIELDS.has(key) || SENSITIVE_KEY.test(key);
}

/** A JSON value with every withheld field and card-number-like value removed, at any depth. */
function withoutWithheld(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWithheld);
  if (typeof value === "string" && CARD_NUMBER_LIKE.test(value.trim())) return "[withheld]";
  if (typeof value === "number" && Number.isInteger(value) && String(Math.abs(value)).length >= 13) return "[withheld]";
  return isRecord(value) ? withoutWithheldFields(value) : value;
}

export function withoutWithheldFields(record: Record<string, unknown>): Extra {
  const kept: Extra = {};
  for (const [key, inner] of Object.entries(record)) {
    if (!isWithheldKey(key)) setOwn(kept, key, withoutWithheld(inner));
  }
  return kept;
}

/** Sets an own property even for keys like "__proto__" (JSON.parse makes them own keys; `=` would set the prototype). */
function setOwn(target: Extra, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
