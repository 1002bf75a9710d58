/** The vocabulary of the station catalog: brands, amenities, the shape of a generated station, brand shares. */
import { CASEYS_STATES, KWIKTRIP_STATES, type StateCode } from "./geo-data";

export const BRANDS = ["pilot", "loves", "ta", "petro", "flyingj", "kwiktrip", "caseys", "other"] as const;
export type Brand = (typeof BRANDS)[number];

export const AMENITIES = [
  "showers",
  "parking",
  "scales",
  "restaurant",
  "wifi",
  "laundry",
  "atm",
  "tire_service",
  "repair",
  "rv_dump",
] as const;
export type Amenity = (typeof AMENITIES)[number];

export interface StationSeed {
  id: string;
  /** Station number: 5 digits, leading zeros kept, unique. */
  locNum: string;
  name: string;
  brand: Brand;
  address: string;
  city: string;
  /** USPS code, contiguous US + DC only. */
  state: StateCode;
  zip: string;
  lat: number;
  lng: number;
  phone: string;
  amenities: Amenity[];
  hasDef: boolean;
  /** Retail price per gallon in thousandths of a dollar (3899 = $3.899); `def` is null when the station has no DEF. */
  prices: { diesel: number; unleaded: number; def: number | null };
  /** ISO 8601 UTC, seconds precision. */
  priceUpdatedAt: string;
}

/** Target share of each brand in the catalog. */
export const BRAND_SHARES: Readonly<Record<Brand, number>> = {
  pilot: 0.22,
  loves: 0.2,
  ta: 0.1,
  petro: 0.06,
  flyingj: 0.1,
  kwiktrip: 0.06,
  caseys: 0.08,
  other: 0.18,
};

/** Brands that only exist in some states. */
export const BRAND_REGIONS: Readonly<Partial<Record<Brand, readonly StateCode[]>>> = {
  kwiktrip: KWIKTRIP_STATES,
  caseys: CASEYS_STATES,
};

/** Share of stations placed near a city (the rest go along interstates). */
/** Share of stations whose price stamp is 2–10 days old. */
export const STALE_SHARE = 0.08;
/** Largest supported catalog (loc_num has 5 digits). */
export const MAX_STATIONS = 99_999;

/** Brands a station in `state` may carry. */
export function brandsAllowedIn(state: StateCode): Brand[] {
  return BRANDS.filter((b) => BRAND_REGIONS[b]?.includes(state) ?? true);
}
