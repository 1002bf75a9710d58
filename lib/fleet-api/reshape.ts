import "server-only";

import type { Account, Page, Station, StationDetail, Transaction, TransactionDetail } from "../model";
import { collectExtra, STATION_DETAIL_FIELDS, TRANSACTION_DETAIL_FIELDS, withoutWithheldFields } from "./extra-fields";
import { guard, isRecord, parseOrThrow, REPLY_NAMES, unwrapSingle } from "./read-reply";
import {
  UpstreamAccountFlat,
  UpstreamAccountNested,
  UpstreamAuthReply,
  upstreamPageOf,
  UpstreamStationDetail,
  UpstreamStationItem,
  UpstreamTransactionDetail,
  UpstreamTransactionItem,
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
