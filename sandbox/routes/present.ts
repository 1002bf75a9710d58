import { createHash } from "node:crypto";

import type { Profile } from "../config";
import { formatCents, formatMilli, toNumber } from "../db/money";
import type { CustomerRow, StationRow, TransactionRow } from "../db/rows";
import { isoUtc, isoWithOffset } from "../db/timezones";

/** The alternative description names two chains; every other chain is reported as `other`. */
export const ALTERNATIVE_BRANDS = ["pilot", "loves", "other"] as const;
const NAMED_ALTERNATIVE_BRANDS: readonly string[] = ["pilot", "loves"];

/** How one profile writes numbers, times and brands. */
interface Formats {
  isPrimary: boolean;
  money: (cents: number) => number | string;
  milli: (units: number) => number | string;
  at: (epochSec: number, offsetMin: number) => string;
  brand: (code: string) => string;
}

function formatsFor(profile: Profile): Formats {
  const isPrimary = profile === "primary";
  return {
    isPrimary,
    money: (cents) => (isPrimary ? toNumber(cents, 2) : formatCents(cents)),
    milli: (units) => (isPrimary ? toNumber(units, 3) : formatMilli(units)),
    at: (epochSec, offsetMin) => (isPrimary ? isoWithOffset(epochSec, offsetMin) : isoUtc(epochSec)),
    brand: (code) => (isPrimary || NAMED_ALTERNATIVE_BRANDS.includes(code) ? code : "other"),
  };
}

/** Presenters turn rows into the JSON of one profile. Minor units are formatted exactly, never through float sums. */
export function presenters(profile: Profile) {
  const formats = formatsFor(profile);
  return { ...transactionPresenters(formats), ...locationPresenters(formats), account: accountPresenter(formats) };
}

function transactionPresenters({ isPrimary, money, milli, at }: Formats) {
  const transaction = (row: TransactionRow) => ({
    id: row.id,
    transaction_id: row.ref,
    transaction_at: at(row.at_utc, row.tz_offset_min),
    status: row.status,
    product: row.product,
    gallons: milli(row.gallons_milli),
    price_per_gallon: milli(row.price_milli),
    amount: money(row.amount_cents),
    station: {
      id: row.station_id,
      name: row.station_name,
      loc: row.station_loc,
      city: row.station_city,
      state: row.station_state,
    },
    driver: { id: row.driver_id, name: row.driver_name, truck_id: row.driver_truck },
    card: { last4: row.card_last4 },
    def: { gallons: milli(row.def_gallons_milli), amount: money(row.def_amount_cents), category: row.def_category },
  });

  const transactionDetail = (row: TransactionRow) => {
    const base = transaction(row);
    if (isPrimary) {
      return {
        ...base,
        station: { ...base.station, address: row.station_address, zip: row.station_zip },
        driver: { ...base.driver, email: row.driver_email },
        card: { ...base.card, type: row.card_type },
        source: row.source,
        created_at: isoWithOffset(row.created_at, row.tz_offset_min),
        updated_at: isoWithOffset(row.updated_at, row.tz_offset_min),
      };
    }
    const digest = createHash("sha256").update(row.id).digest();
    return {
      ...base,
      audit: {
        authorization_code: String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0"),
        terminal_id: `T${String(digest.readUInt16BE(4) % 10_000).padStart(4, "0")}`,
        entry_method: row.source,
        odometer: row.product === "diesel" ? 100_000 + (digest.readUInt32BE(6) % 600_000) : null,
        recorded_at: isoUtc(row.created_at),
        settled_at: row.status === "completed" ? isoUtc(row.updated_at) : null,
      },
    };
  };

  return { transaction, transactionDetail };
}

function locationPresenters({ isPrimary, milli, brand }: Formats) {
  const location = (row: StationRow, feeMilli: number) => ({
    id: row.id,
    loc_num: row.loc_num,
    name: row.name,
    brand: brand(row.brand),
    address: row.address,
    city: row.city,
    state: row.state,
    lat: row.lat,
    lng: row.lng,
    price: milli(row.diesel_milli - feeMilli),
    price_updated_at: row.price_updated_at,
  });

  const locationDetail = (row: StationRow, feeMilli: number) => {
    const amenities = JSON.parse(row.amenities) as string[];
    const base = location(row, feeMilli);
    if (isPrimary) return { ...base, amenities, phone: row.phone, def_available: row.has_def === 1, zip: row.zip };
    return {
      ...base,
      phone: row.phone,
      zip: row.zip,
      amenities,
      prices: {
        diesel: milli(row.diesel_milli - feeMilli),
        unleaded: milli(row.unleaded_milli - feeMilli),
        def: row.def_milli === null ? null : milli(row.def_milli),
      },
    };
  };

  return { location, locationDetail };
}

function accountPresenter({ isPrimary }: Formats) {
  return (row: CustomerRow, totals: { count: number; gallonsMilli: number; amountCents: number }) =>
    isPrimary
      ? {
          ok: true as const,
          customer: { id: row.id, name: row.name, code: row.code, active: row.active === 1 },
          totals_30d: {
            transactions: totals.count,
            gallons: formatMilli(totals.gallonsMilli),
            amount: formatCents(totals.amountCents),
          },
        }
      : {
          id: row.id,
          name: row.name,
          fee_deduction_per_gallon: toNumber(row.fee_milli, 3),
          is_active: row.active === 1,
          created_at: row.created_at,
        };
}
