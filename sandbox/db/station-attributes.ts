/** Station attributes other than place and name: DEF, amenities, address, ZIP, phone, prices and the price stamp. */
import { STATE_AREA_CODES, STATE_PRICE_BASE, STATE_ZIP3, type StateCode } from "./geo-data";
import type { Rng } from "./rng";
import type { Amenity, Brand, StationSeed } from "./station-catalog";
import type { Location } from "./station-location";

const BRAND_DIESEL_OFFSET: Readonly<Record<Brand, number>> = {
  pilot: 40,
  flyingj: 30,
  loves: 20,
  ta: 50,
  petro: 50,
  kwiktrip: -30,
  caseys: -10,
  other: -60,
};

const BRAND_DEF_OFFSET: Readonly<Record<Brand, number>> = {
  pilot: 200,
  flyingj: 200,
  loves: 150,
  ta: 250,
  petro: 250,
  kwiktrip: -100,
  caseys: 0,
  other: -150,
};

export const HAS_DEF: Readonly<Record<Brand, number>> = {
  pilot: 0.82,
  loves: 0.82,
  ta: 0.82,
  petro: 0.82,
  flyingj: 0.82,
  kwiktrip: 0.5,
  caseys: 0.35,
  other: 0.55,
};

type AmenityOdds = Readonly<Record<Amenity, number>>;
const TRAVEL_CENTER_ODDS: AmenityOdds = {
  showers: 0.97,
  parking: 0.97,
  scales: 0.85,
  restaurant: 0.85,
  wifi: 0.85,
  laundry: 0.65,
  atm: 0.9,
  tire_service: 0.35,
  repair: 0.15,
  rv_dump: 0.3,
};
export const AMENITY_ODDS: Readonly<Record<Brand, AmenityOdds>> = {
  pilot: TRAVEL_CENTER_ODDS,
  flyingj: { ...TRAVEL_CENTER_ODDS, rv_dump: 0.5 },
  loves: { ...TRAVEL_CENTER_ODDS, tire_service: 0.7, repair: 0.45 },
  ta: { ...TRAVEL_CENTER_ODDS, restaurant: 0.95, tire_service: 0.8, repair: 0.75 },
  petro: { ...TRAVEL_CENTER_ODDS, restaurant: 0.95, tire_service: 0.8, repair: 0.75 },
  kwiktrip: {
    showers: 0.15,
    parking: 0.45,
    scales: 0.1,
    restaurant: 0.55,
    wifi: 0.6,
    laundry: 0.02,
    atm: 0.9,
    tire_service: 0.02,
    repair: 0,
    rv_dump: 0.05,
  },
  caseys: {
    showers: 0.05,
    parking: 0.3,
    scales: 0.05,
    restaurant: 0.6,
    wifi: 0.4,
    laundry: 0,
    atm: 0.8,
    tire_service: 0,
    repair: 0,
    rv_dump: 0.02,
  },
  other: {
    showers: 0.7,
    parking: 0.85,
    scales: 0.5,
    restaurant: 0.6,
    wifi: 0.55,
    laundry: 0.35,
    atm: 0.75,
    tire_service: 0.35,
    repair: 0.3,
    rv_dump: 0.15,
  },
};

const CITY_STREETS = [
  "Main St",
  "Industrial Blvd",
  "Commerce Dr",
  "Airport Rd",
  "Market St",
  "Broadway",
  "Center St",
  "Business Loop",
  "Truck Route",
  "Railroad Ave",
  "Washington St",
  "Lincoln Ave",
  "Frontage Rd",
  "Depot St",
  "Grand Ave",
] as const;
const HIGHWAY_NUMBERS = [6, 20, 30, 40, 50, 61, 65, 66, 69, 75, 83, 87, 93, 287] as const;
const INTERSTATE_ROADS = [
  "Truck Plaza Dr",
  "Travel Center Dr",
  "Commerce Dr",
  "Service Rd",
  "Gateway Blvd",
  "Industrial Park Rd",
] as const;

export function address(rng: Rng, loc: Location): string {
  if (loc.route !== null && loc.exit !== null) {
    const roll = rng.next();
    if (roll < 0.3) return `Exit ${loc.exit}, ${loc.route}`;
    if (roll < 0.55) return `${rng.int(100, 9999)} ${loc.route} Frontage Rd`;
    if (roll < 0.7) return `${rng.int(100, 9999)} County Road ${rng.int(1, 199)}`;
    return `${rng.int(100, 9999)} ${rng.pick(INTERSTATE_ROADS)}`;
  }
  const roll = rng.next();
  const number = rng.int(100, 12_999);
  if (roll < 0.2) return `${number} US Highway ${rng.pick(HIGHWAY_NUMBERS)}`;
  if (roll < 0.3) return `${number} State Route ${rng.int(1, 299)}`;
  const dir = rng.pick(["N ", "S ", "E ", "W ", "", ""]);
  return `${number} ${dir}${rng.pick(CITY_STREETS)}`;
}

export function zipFor(rng: Rng, state: StateCode): string {
  const [lo, hi] = rng.pick(STATE_ZIP3[state]);
  return `${String(rng.int(lo, hi)).padStart(3, "0")}${String(rng.int(1, 99)).padStart(2, "0")}`;
}

export function phoneFor(rng: Rng, state: StateCode): string {
  // 555-0100..0199 is reserved for fictional use, so these numbers never ring a real person.
  return `(${rng.pick(STATE_AREA_CODES[state])}) 555-01${String(rng.int(0, 99)).padStart(2, "0")}`;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Pump prices end in 9: x.xx9. */
export const pumpPrice = (milli: number): number => Math.floor(milli / 10) * 10 + 9;

export function pricesFor(rng: Rng, brand: Brand, state: StateCode, hasDef: boolean): StationSeed["prices"] {
  const base = STATE_PRICE_BASE[state];
  const diesel = pumpPrice(
    clamp(base + BRAND_DIESEL_OFFSET[brand] + Math.round(rng.normal() * 60), base - 350, base + 350),
  );
  const unleaded = pumpPrice(clamp(diesel - 400 + Math.round(rng.normal() * 70), diesel - 700, diesel - 100));
  const def = hasDef
    ? pumpPrice(clamp(3400 + BRAND_DEF_OFFSET[brand] + Math.round(rng.normal() * 280), 2800, 4490))
    : null;
  return { diesel, unleaded, def };
}
