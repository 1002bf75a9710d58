import "server-only";
import type { z } from "zod";
import type { Account, Extra, Page, Station, StationDetail, Transaction, TransactionDetail } from "../model";
import { FleetApiError, isFleetApiError, UPSTREAM_ERROR_CODES, type FleetApiErrorCode } from "./errors";
import {
  UpstreamAccountFlat,
  UpstreamAccountNested,
  UpstreamAuthReply,
  UpstreamErrorAlternative,
  UpstreamErrorPrimary,
  UpstreamStationDetail,
  UpstreamStationItem,
  UpstreamTransactionDetail,
  UpstreamTransactionItem,
  upstreamPageOf,
} from "./upstream-schemas";

/*
 * From the upstream's JSON (either documented shape) to the normalized model. Each function parses with the
 * tolerant schemas of upstream-schemas.ts and renames; anything it cannot read becomes one FleetApiError
 * `invalid_response` naming the first offending field, never a ZodError or TypeError.
 */

export interface AuthGrant {
  accessToken: string;
  expiresInSeconds: number;
  /** The scopes the alternative shape lists; null when the reply has none (the primary shape). */
  scopes: string[] | null;
}

type Path = readonly PropertyKey[];

/** How each reply is named in messages: "The Fleet Fuel API sent <this> we cannot read: …". */
const REPLY_NAMES = {
  auth: "a sign-in reply",
  account: "an account",
  transactionList: "a transaction list",
  transaction: "a transaction",
  stationList: "a station list",
  station: "a station",
} as const;
type ReplyName = (typeof REPLY_NAMES)[keyof typeof REPLY_NAMES];

/**
 * Fields the spec withholds from customers. Our model has no place for them, and they are also removed from `extra`
 * and `audit` wherever they turn up, so a provider that leaks one cannot make us show it.
 */
const WITHHELD_FIELDS: ReadonlySet<string> = new Set(["fee_deduction_per_gallon"]);

// ——— public reshapers ———

export function reshapeAuth(body: unknown): AuthGrant {
  return guard(REPLY_NAMES.auth, () => {
    const reply = parseOrThrow(UpstreamAuthReply, body, REPLY_NAMES.auth, []);
    return { accessToken: reply.access_token, expiresInSeconds: reply.expires_in, scopes: reply.scopes ?? null };
  });
}

/** Keys whose presence marks the alternative flat account (`{id, name, fee_deduction_per_gallon, is_active, …}`). */
const FLAT_ACCOUNT_MARKERS = ["id", "is_active", "fee_deduction_per_gallon", "created_at"];

export function reshapeAccount(body: unknown): Account {
  const what = REPLY_NAMES.account;
  return guard(what, () => {
    const { resource, prefix } = unwrapSingle(body, what);
    const isFlat =
      isRecord(resource) && !("customer" in resource) && FLAT_ACCOUNT_MARKERS.some((key) => key in resource);
    if (isFlat) {
      const flat = parseOrThrow(UpstreamAccountFlat, resource, what, prefix);
      return {
        id: flat.id,
        name: flat.name,
        code: flat.code,
        active: flat.active,
        createdAt: flat.created_at,
        totals30d: flat.totals_30d ? { ...flat.totals_30d, source: "upstream" } : null,
      };
    }
    // The primary shape is also what we report against when the reply resembles neither.
    const nested = parseOrThrow(UpstreamAccountNested, resource, what, prefix);
    return {
      id: nested.customer.id,
      name: nested.customer.name,
      code: nested.customer.code,
      active: nested.customer.active,
      createdAt: nested.customer.created_at,
      totals30d: nested.totals_30d ? { ...nested.totals_30d, source: "upstream" } : null,
    };
  });
}

const UpstreamTransactionPage = upstreamPageOf(UpstreamTransactionItem);
const UpstreamStationPage = upstreamPageOf(UpstreamStationItem);

export function reshapeTransactionPage(body: unknown): Page<Transaction> {
  const what = REPLY_NAMES.transactionList;
  return guard(what, () => toPage(parseOrThrow(UpstreamTransactionPage, body, what, []).data, toTransaction));
}

export function reshapeTransactionDetail(body: unknown): TransactionDetail {
  const what = REPLY_NAMES.transaction;
  return guard(what, () => {
    const { resource, prefix } = unwrapSingle(body, what);
    const detail = parseOrThrow(UpstreamTransactionDetail, resource, what, prefix);
    const base = toTransaction(detail);
    return {
      ...base,
      station: { ...base.station, address: detail.station.address, zip: detail.station.zip },
      driver: { ...base.driver, email: detail.driver.email },
      card: { ...base.card, type: detail.card.type },
      source: detail.source,
      createdAt: detail.created_at,
      updatedAt: detail.updated_at,
      audit: detail.audit ? withoutWithheldFields(detail.audit) : null,
      extra: collectExtra(resource, TRANSACTION_DETAIL_FIELDS),
    };
  });
}

export function reshapeStationPage(body: unknown): Page<Station> {
  const what = REPLY_NAMES.stationList;
  return guard(what, () => toPage(parseOrThrow(UpstreamStationPage, body, what, []).data, toStation));
}

export function reshapeStationDetail(body: unknown): StationDetail {
  const what = REPLY_NAMES.station;
  return guard(what, () => {
    const { resource, prefix } = unwrapSingle(body, what);
    const detail = parseOrThrow(UpstreamStationDetail, resource, what, prefix);
    const productPrices = detail.prices ?? null;
    // The alternative detail may give `prices` without `price`; `price` is the customer's diesel price (as in the
    // list), so the diesel entry stands in for it.
    const price = detail.price ?? productPrices?.diesel ?? null;
    return {
      ...toStation({ ...detail, price }),
      phone: detail.phone,
      zip: detail.zip,
      amenities: detail.amenities,
      defAvailable: detail.def_available ?? defAvailableFromPrices(productPrices),
      prices: productPrices ?? (price === null ? {} : { diesel: price }),
      extra: collectExtra(resource, STATION_DETAIL_FIELDS),
    };
  });
}

/**
 * The alternative station detail says nothing about DEF availability except through `prices.def`. A station that
 * sells DEF has a price for it, so a price means true and an explicit null means false (the provider lists the
 * product and says there is no price for it). Without a `def` entry at all we do not know: null.
 */
function defAvailableFromPrices(prices: Record<string, string | null> | null): boolean | null {
  if (prices === null || !Object.hasOwn(prices, "def")) return null;
  return prices.def !== null;
}

// ——— item mappers ———

function toPage<Item, Out>(
  data: { page: number; limit: number; total: number; pages: number; items: Item[] },
  toItem: (item: Item) => Out,
): Page<Out> {
  return { page: data.page, limit: data.limit, total: data.total, pages: data.pages, items: data.items.map(toItem) };
}

const ZERO_VOLUME = "0.000";
const ZERO_MONEY = "0.00";
const NO_DEF_CATEGORY = "none";

function toTransaction(item: UpstreamTransactionItem): Transaction {
  return {
    id: item.id,
    reference: item.transaction_id,
    at: item.transaction_at.at,
    localOffsetMinutes: item.transaction_at.offsetMinutes,
    status: item.status,
    product: item.product,
    gallons: item.gallons,
    pricePerGallon: item.price_per_gallon,
    amount: item.amount,
    station: {
      id: item.station.id,
      name: item.station.name,
      locNum: item.station.loc,
      city: item.station.city,
      state: item.station.state,
    },
    driver: { id: item.driver.id, name: item.driver.name, truckId: item.driver.truck_id },
    card: { last4: item.card.last4 },
    def: toDef(item.def),
  };
}

/**
 * The upstream sends a `def` object on every transaction; "no DEF" is zero gallons or category "none", with a zero
 * amount. A non-zero amount is kept whatever the rest says, so money is never dropped silently.
 */
function toDef(def: UpstreamTransactionItem["def"]): Transaction["def"] {
  if (!def) return null;
  const hasNoFluid = def.gallons === ZERO_VOLUME || def.category.trim().toLowerCase() === NO_DEF_CATEGORY;
  if (hasNoFluid && def.amount === ZERO_MONEY) return null;
  return { gallons: def.gallons, amount: def.amount, category: def.category };
}

function toStation(item: UpstreamStationItem): Station {
  return {
    id: item.id,
    locNum: item.loc_num,
    name: item.name,
    brand: item.brand,
    address: item.address,
    city: item.city,
    state: item.state,
    lat: item.lat,
    lng: item.lng,
    price: item.price,
    priceUpdatedAt: item.price_updated_at,
  };
}

// ——— extra fields ———

/** The fields a detail maps, per object; everything else the upstream sent goes to `extra`. */
interface MappedFields {
  top: ReadonlySet<string>;
  /** Nested objects the model maps field by field: their unmapped fields go to `extra` as "parent.field". */
  nested: Readonly<Record<string, ReadonlySet<string>>>;
}

/** `ok` belongs to the envelope, not the resource (a bare resource may still carry it). */
const ENVELOPE_FIELDS = ["ok"];

const TRANSACTION_DETAIL_FIELDS: MappedFields = {
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

const STATION_DETAIL_FIELDS: MappedFields = {
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
function collectExtra(resource: unknown, mapped: MappedFields): Extra {
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

function withoutWithheldFields(record: Record<string, unknown>): Extra {
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

// ——— envelopes, parsing and invalid_response ———

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Single resources come wrapped `{ok: true, data: {…}}` (our sandbox) or bare (the spec's "the single resource").
 * A reply is taken as wrapped when it has `data` and no `id` of its own.
 */
function unwrapSingle(body: unknown, what: ReplyName): { resource: unknown; prefix: Path } {
  if (!isRecord(body) || !("data" in body) || "id" in body) return { resource: body, prefix: [] };
  if ("ok" in body && body.ok !== true) throw invalidResponse(what, ["ok"], "is not true");
  return { resource: body.data, prefix: ["data"] };
}

function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: ReplyName,
  prefix: Path,
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidResponse(what, prefix, "could not be read");
  return throwForIssue(issue, value, what, prefix);
}

function throwForIssue(issue: z.core.$ZodIssue, value: unknown, what: ReplyName, prefix: Path): never {
  throw invalidResponse(what, [...prefix, ...issue.path], describeIssue(issue, valueAt(value, issue.path)));
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (typeof key === "symbol") return undefined;
    if (Array.isArray(current) && typeof key === "number") current = current[key];
    else if (isRecord(current)) current = current[String(key)];
    else return undefined;
  }
  return current;
}

const EXPECTED_IN_WORDS: Readonly<Record<string, string>> = {
  string: "is not a string",
  number: "is not a number",
  int: "is not a whole number",
  boolean: "is not true or false",
  object: "is not an object",
  record: "is not an object",
  array: "is not a list",
};

/** The words after the field's name: "… data.items.3.status is not one of completed, pending, failed". */
function describeIssue(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case "custom":
      return issue.message;
    case "invalid_type":
      if (received === undefined) return "is missing";
      if (received === null) return "is null";
      return EXPECTED_IN_WORDS[issue.expected] ?? `is not of the expected type (${issue.expected})`;
    case "invalid_value":
      return issue.values.length === 1
        ? `is not ${String(issue.values[0])}`
        : `is not one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      if (issue.origin === "string") return "is empty";
      return issue.origin === "array" ? "has too few entries" : `is less than ${String(issue.minimum)}`;
    case "too_big":
      return "is too large";
    case "invalid_format":
      return "is not in the expected format";
    case "invalid_key":
    case "invalid_element":
      return "has an entry we cannot read";
    default:
      return "is not valid";
  }
}

function invalidResponse(what: ReplyName, path: Path, problem: string, cause?: unknown): FleetApiError {
  const field = path.length > 0 ? path.map(String).join(".") : undefined;
  return new FleetApiError({
    status: 200,
    code: "invalid_response",
    message: `The Fleet Fuel API sent ${what} we cannot read: ${field ?? "the reply"} ${problem}`,
    ...(field === undefined ? {} : { field }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Whatever goes wrong while reshaping is an invalid_response; a FleetApiError already is one. */
function guard<T>(what: ReplyName, reshape: () => T): T {
  try {
    return reshape();
  } catch (error) {
    if (isFleetApiError(error)) throw error;
    throw invalidResponse(what, [], "could not be read", error);
  }
}

// ——— error bodies ———

type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

const isUpstreamErrorCode = (code: string): code is UpstreamErrorCode =>
  (UPSTREAM_ERROR_CODES as readonly string[]).includes(code);

const GENERIC_MESSAGES: Readonly<Record<UpstreamErrorCode, string>> = {
  bad_request: "The Fleet Fuel API rejected the request as malformed.",
  unauthenticated: "The Fleet Fuel API did not accept the credentials.",
  invalid_credentials: "The Fleet Fuel API does not know this key id, or the secret is wrong.",
  scope_denied: "This API key lacks the scope this request needs.",
  not_found: "The Fleet Fuel API has no such resource for this customer.",
  rate_limited: "The Fleet Fuel API's request budget for this key is used up.",
  server_error: "The Fleet Fuel API failed on its side.",
};

const HTTP_BAD_REQUEST = 400;
const HTTP_UNAUTHORIZED = 401;
const HTTP_FORBIDDEN = 403;
const HTTP_NOT_FOUND = 404;
const HTTP_TOO_MANY_REQUESTS = 429;
const HTTP_SERVER_ERROR = 500;
/** An upstream message longer than this is cut: it is shown to people and logged. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The spec's status table. Other 4xx are our request's fault (bad_request); anything else that is not a success
 * (5xx, and statuses that should not carry an error at all) is the server's (server_error).
 */
function codeFromStatus(status: number): UpstreamErrorCode {
  switch (status) {
    case HTTP_BAD_REQUEST:
      return "bad_request";
    case HTTP_UNAUTHORIZED:
      return "unauthenticated";
    case HTTP_FORBIDDEN:
      return "scope_denied";
    case HTTP_NOT_FOUND:
      return "not_found";
    case HTTP_TOO_MANY_REQUESTS:
      return "rate_limited";
    default:
      return status >= HTTP_BAD_REQUEST && status < HTTP_SERVER_ERROR ? "bad_request" : "server_error";
  }
}

interface ErrorBodyParts {
  code: string | undefined;
  message: string | undefined;
  /** Where the body itself names a parameter or scope (not in the spec, but cheap to honour). */
  hints: Record<string, unknown>;
}

function readErrorBody(body: unknown): ErrorBodyParts {
  const alternative = UpstreamErrorAlternative.safeParse(body);
  if (alternative.success && isRecord(body) && isRecord(body.error)) {
    return { code: alternative.data.error.code, message: alternative.data.error.message, hints: body.error };
  }
  const primary = UpstreamErrorPrimary.safeParse(body);
  if (primary.success && isRecord(body))
    return { code: primary.data.error, message: primary.data.message, hints: body };
  return { code: undefined, message: undefined, hints: {} };
}

export function reshapeError(
  status: number,
  body: unknown,
): { code: FleetApiErrorCode; message: string; scope?: string; field?: string } {
  try {
    const parts = readErrorBody(body);
    const code: UpstreamErrorCode =
      parts.code !== undefined && isUpstreamErrorCode(parts.code) ? parts.code : codeFromStatus(status);
    const message = tidyMessage(parts.message) ?? GENERIC_MESSAGES[code];
    if (code === "scope_denied") {
      const scope = stringHint(parts.hints, "scope") ?? scopeFromMessage(message);
      return scope === undefined ? { code, message } : { code, message, scope };
    }
    if (code === "bad_request") {
      const field = stringHint(parts.hints, "field") ?? stringHint(parts.hints, "param") ?? fieldFromMessage(message);
      return field === undefined ? { code, message } : { code, message, field };
    }
    return { code, message };
  } catch {
    // Never throws: nothing above should, but an error body is no reason to lose the status.
    const code = codeFromStatus(status);
    return { code, message: GENERIC_MESSAGES[code] };
  }
}

function tidyMessage(message: string | undefined): string | undefined {
  const trimmed = message?.trim();
  if (!trimmed) return undefined;
  return trimmed.length > MAX_MESSAGE_LENGTH ? `${trimmed.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : trimmed;
}

function stringHint(hints: Record<string, unknown>, key: string): string | undefined {
  const value = hints[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Scope names of either description: `read` (primary), `account`, `transactions`, `locations` (alternative). */
const SCOPE = "(read|account|transactions|locations)";
const SCOPE_PATTERNS = [
  // "lacks the read scope", "lacks the `transactions` scope"
  new RegExp(`\\b["'\`]?${SCOPE}["'\`]?\\s+scope\\b`, "i"),
  // "scope: locations", "requires scope 'account'"
  new RegExp(`\\bscopes?\\s*[:=]?\\s*["'\`]?${SCOPE}\\b`, "i"),
];

function scopeFromMessage(message: string): string | undefined {
  for (const pattern of SCOPE_PATTERNS) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined) return name.toLowerCase();
  }
  return undefined;
}

/** Words that can open or follow "invalid" in a 400 message without being a parameter. */
const NOT_PARAMETERS: ReadonlySet<string> = new Set([
  "the",
  "this",
  "that",
  "it",
  "request",
  "body",
  "json",
  "input",
  "value",
  "data",
  "query",
]);
const FIELD_PATTERNS = [
  // "Unknown query parameter: q.", "Repeated parameter: limit", "Unknown query parameters: q, search"
  /\bparam(?:eter)?s?\b[^:.]*:\s*["'`]?([A-Za-z_][\w-]*)/i,
  // "parameter 'limit' is repeated"
  /\bparam(?:eter)?\s+["'`]([A-Za-z_][\w-]*)["'`]/i,
  // "limit must be between 1 and 200.", "`status` is not one of …", "from (2026-01-02) is after to (2026-01-01)."
  /^\s*["'`]?([a-z_][a-z0-9_]*)["'`]?(?:\s*\([^)]*\))?\s+(?:must|is|are|should|cannot|can't|may|has|needs?|exceeds?)\b/,
  // "Invalid limit", "invalid value for status"
  /\b(?:invalid|malformed|bad)\s+(?:value\s+(?:for|of)\s+)?["'`]?([a-z_][a-z0-9_]*)["'`]?/i,
];

/** The request parameter a 400 message names, so the client can retry with the other documented variant. */
function fieldFromMessage(message: string): string | undefined {
  for (const pattern of FIELD_PATTERNS) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined && !NOT_PARAMETERS.has(name.toLowerCase())) return name;
  }
  return undefined;
}
