/**
 * Deterministic generator of the sandbox's truck-stop catalog: `generateStations(rng, count, now)` is a pure function
 * of the PRNG state, the count and `now` (no Math.random, no clock). Stations sit at real places from `geo-data.ts`:
 * about 55% near one of ~540 real cities and towns (uniform in a disc of at most 15 km, smaller for coastal and border
 * towns) and about 45% along 21 interstates drawn as polylines of real waypoints, mostly 30–130 km apart (a uniform
 * point on a segment picked by length, jittered at most 3 km sideways and less along shores and border rivers; bridges,
 * causeways and service-less stretches are skipped). A point on a segment takes the state of the nearer waypoint,
 * except that explicit state-line markers split the segments that cross a border, and no station goes within 3 km of
 * such a marker, where the side would be ambiguous; its city is the nearest place of that state, and its exit number
 * is the distance since the route entered the state. Every point is checked cheaply before it is kept — inside a rough
 * but real bounding box of its state and within 60 km of a city or waypoint of that state — and drawn again if not.
 * What keeps points out of the ocean, the Gulf, the Great Lakes, Canada and Mexico is the tables themselves: every
 * city disc and every jittered segment was verified offline against simplified Census state outlines. With at least
 * four stations per state, one station per state (and DC) is placed first at its largest city, so none is missing.
 * Brands follow fixed shares (Kwik Trip and Casey's only in their home states); prices are a per-state diesel base
 * plus a small brand offset and noise, end in 9 like real pumps, and about 8% of price stamps are 2–10 days stale.
 */
import {
  CASEYS_STATES,
  CITIES,
  INTERSTATES,
  KWIKTRIP_STATES,
  STATE_AREA_CODES,
  STATE_BOUNDS,
  STATE_PRICE_BASE,
  STATE_ZIP3,
  STATES,
  type City,
  type RoutePlace,
  type StateCode,
} from "./geo-data";
import type { Rng } from "./rng";

export { CASEYS_STATES, KWIKTRIP_STATES, STATE_BOUNDS, STATES, US_STATE_CODES } from "./geo-data";
export type { StateCode, UsStateCode } from "./geo-data";

export const BRANDS = ["pilot", "loves", "ta", "petro", "flyingj", "kwiktrip", "caseys", "other"] as const;
export type Brand = (typeof BRANDS)[number];

export const PRODUCTS = ["diesel", "unleaded", "def"] as const;
export type Product = (typeof PRODUCTS)[number];

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
export const CITY_SHARE = 0.55;
/** A generated point must be within this distance of a city or waypoint of its state. */
export const MAX_PLACE_KM = 60;
/** No interstate station closer than this to a state-line marker. */
export const STATE_LINE_CLEARANCE_KM = 3;
/** Share of stations whose price stamp is 2–10 days old. */
export const STALE_SHARE = 0.08;
/** Largest supported catalog (loc_num has 5 digits). */
export const MAX_STATIONS = 99_999;

const KM_PER_DEG = 111.32;
/** Road miles per straight-line km between waypoints (roads wind about 5% more than the chord). */
const ROAD_MILES_PER_KM = 1.05 / 1.609;
const DEG = Math.PI / 180;

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a =
    Math.sin(((lat2 - lat1) * DEG) / 2) ** 2 +
    Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(((lng2 - lng1) * DEG) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

// ---------------------------------------------------------------------------------------------------------------
// Derived geography (computed once, lazily; pure functions of the static tables)

interface Place {
  name: string;
  state: StateCode;
  lat: number;
  lng: number;
}

interface Segment {
  route: string;
  a: { lat: number; lng: number };
  b: { lat: number; lng: number };
  lengthKm: number;
  jitterKm: number;
  /** Fixed state when one end is a state-line marker; otherwise null (nearer endpoint decides). */
  fixedState: StateCode | null;
  aState: StateCode | null;
  bState: StateCode | null;
  /** A state-line marker at one end, to keep stations clear of it. */
  stateLine: { lat: number; lng: number } | null;
  /** Milepost at `a` and at `b`, accounting for where each state's numbering restarts. */
  mileA: number;
  mileB: number;
}

interface Geography {
  placesByState: ReadonlyMap<StateCode, readonly Place[]>;
  segments: readonly Segment[];
  largestCity: ReadonlyMap<StateCode, City>;
}

let geography: Geography | undefined;

function getGeography(): Geography {
  if (geography) return geography;
  const placesByState = new Map<StateCode, Place[]>();
  const addPlace = (p: Place): void => {
    const list = placesByState.get(p.state) ?? [];
    if (!list.some((q) => q.name === p.name && Math.abs(q.lat - p.lat) < 0.05 && Math.abs(q.lng - p.lng) < 0.05))
      list.push(p);
    placesByState.set(p.state, list);
  };
  const largestCity = new Map<StateCode, City>();
  for (const city of CITIES) {
    addPlace(city);
    const best = largestCity.get(city.state);
    if (!best || city.weight > best.weight) largestCity.set(city.state, city);
  }

  const segments: Segment[] = [];
  for (const route of INTERSTATES) {
    // Milepost bookkeeping: numbering restarts at 0 where the route enters a new state.
    let cum = 0;
    let runStartKm = 0;
    let runOffsetMiles = route.startMile;
    let prevState: StateCode | null = null;
    const miles: number[] = [];
    route.points.forEach((p, i) => {
      const prev = route.points[i - 1];
      if (prev) cum += haversineKm(prev.lat, prev.lng, p.lat, p.lng);
      if (p.kind === "line") {
        runStartKm = cum;
        runOffsetMiles = 0;
        prevState = null;
      } else {
        if (prevState !== null && prevState !== p.state && prev) {
          // A state change without a marker (only across skipped bridges): the boundary is the midpoint.
          runStartKm = cum - haversineKm(prev.lat, prev.lng, p.lat, p.lng) / 2;
          runOffsetMiles = 0;
        }
        prevState = p.state;
        addPlace(p);
      }
      miles.push(runOffsetMiles + (cum - runStartKm) * ROAD_MILES_PER_KM);
    });
    route.points.forEach((a, i) => {
      const b = route.points[i + 1];
      if (!b) return;
      if (a.kind === "place" && a.skipNext) return;
      const aPlace: RoutePlace | null = a.kind === "place" ? a : null;
      const bPlace: RoutePlace | null = b.kind === "place" ? b : null;
      if (!aPlace && !bPlace) return;
      const lengthKm = haversineKm(a.lat, a.lng, b.lat, b.lng);
      // The milepost at a state-line marker is the end of the previous state's numbering, not the start of the next.
      const mileA = a.kind === "line" ? 0 : (miles[i] ?? 0);
      const mileB = b.kind === "line" ? mileA + lengthKm * ROAD_MILES_PER_KM : (miles[i + 1] ?? 0);
      segments.push({
        route: route.name,
        a,
        b,
        lengthKm,
        jitterKm: a.jitterKm,
        fixedState: !aPlace ? (bPlace?.state ?? null) : !bPlace ? aPlace.state : null,
        aState: aPlace?.state ?? null,
        bState: bPlace?.state ?? null,
        stateLine: a.kind === "line" ? a : b.kind === "line" ? b : null,
        mileA,
        mileB,
      });
    });
  }
  geography = { placesByState, segments, largestCity };
  return geography;
}

/** Inside the state's bounding box and within MAX_PLACE_KM of one of its cities or interstate waypoints. */
export function isPlausibleLocation(lat: number, lng: number, state: StateCode): boolean {
  const box = STATE_BOUNDS[state];
  if (lat < box.minLat || lat > box.maxLat || lng < box.minLng || lng > box.maxLng) return false;
  return nearestPlace(lat, lng, state).distanceKm <= MAX_PLACE_KM;
}

function nearestPlace(lat: number, lng: number, state: StateCode): { place: Place | null; distanceKm: number } {
  let place: Place | null = null;
  let distanceKm = Infinity;
  for (const p of getGeography().placesByState.get(state) ?? []) {
    const d = haversineKm(lat, lng, p.lat, p.lng);
    if (d < distanceKm) {
      distanceKm = d;
      place = p;
    }
  }
  return { place, distanceKm };
}

// ---------------------------------------------------------------------------------------------------------------
// Sampling

/** Weighted picker with a precomputed cumulative table (O(log n) per draw, one rng.next() per draw). */
class Picker<T> {
  private readonly cumulative: number[] = [];
  private readonly items: T[] = [];
  private total = 0;
  constructor(entries: Iterable<readonly [T, number]>) {
    for (const [item, weight] of entries) {
      if (weight <= 0) continue;
      this.total += weight;
      this.items.push(item);
      this.cumulative.push(this.total);
    }
  }
  get size(): number {
    return this.items.length;
  }
  pick(rng: Rng): T {
    const r = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] ?? 0) > r) hi = mid;
      else lo = mid + 1;
    }
    const item = this.items[lo];
    if (item === undefined) throw new Error("Picker is empty");
    return item;
  }
}

interface Location {
  lat: number;
  lng: number;
  state: StateCode;
  city: string;
  /** Set for interstate locations. */
  route: string | null;
  exit: number | null;
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5;

function inDisc(rng: Rng, city: City): { lat: number; lng: number } {
  const bearing = rng.next() * 2 * Math.PI;
  const dist = city.radiusKm * Math.sqrt(rng.next());
  const lat = city.lat + (dist * Math.cos(bearing)) / KM_PER_DEG;
  const lng = city.lng + (dist * Math.sin(bearing)) / (KM_PER_DEG * Math.cos(city.lat * DEG));
  return { lat: round5(lat), lng: round5(lng) };
}

function cityLocation(rng: Rng, city: City): Location | null {
  const { lat, lng } = inDisc(rng, city);
  if (!isPlausibleLocation(lat, lng, city.state)) return null;
  return { lat, lng, state: city.state, city: city.name, route: null, exit: null };
}

function interstateLocation(rng: Rng, seg: Segment): Location | null {
  const t = rng.next();
  const side = (rng.next() * 2 - 1) * seg.jitterKm;
  const k = Math.cos(((seg.a.lat + seg.b.lat) / 2) * DEG);
  const dx = (seg.b.lng - seg.a.lng) * k;
  const dy = seg.b.lat - seg.a.lat;
  const len = Math.hypot(dx, dy) || 1;
  const lat = round5(seg.a.lat + dy * t + ((dx / len) * side) / KM_PER_DEG);
  const lng = round5(seg.a.lng + (dx * t - ((dy / len) * side) / KM_PER_DEG) / k);
  const state = seg.fixedState ?? (t < 0.5 ? seg.aState : seg.bState);
  if (!state) return null;
  if (seg.stateLine && haversineKm(lat, lng, seg.stateLine.lat, seg.stateLine.lng) < STATE_LINE_CLEARANCE_KM)
    return null;
  const box = STATE_BOUNDS[state];
  if (lat < box.minLat || lat > box.maxLat || lng < box.minLng || lng > box.maxLng) return null;
  const near = nearestPlace(lat, lng, state);
  if (!near.place || near.distanceKm > MAX_PLACE_KM) return null;
  const exit = Math.max(1, Math.round(seg.mileA + (seg.mileB - seg.mileA) * t));
  return { lat, lng, state, city: near.place.name, route: seg.route, exit };
}

/** City and segment pickers, restricted to a set of states (null = everywhere), built on first use. */
interface RegionSampler {
  cities: Picker<City>;
  segments: Picker<Segment>;
}

function regionSampler(cache: Map<string, RegionSampler>, states: readonly StateCode[] | null): RegionSampler {
  const key = states ? [...states].sort().join(",") : "*";
  const cached = cache.get(key);
  if (cached) return cached;
  const allowed = states ? new Set<StateCode>(states) : null;
  const ok = (s: StateCode | null): boolean => s !== null && (!allowed || allowed.has(s));
  const { segments } = getGeography();
  const sampler: RegionSampler = {
    cities: new Picker(CITIES.filter((c) => ok(c.state)).map((c) => [c, c.weight] as const)),
    segments: new Picker(
      segments.filter((s) => ok(s.fixedState) || ok(s.aState) || ok(s.bState)).map((s) => [s, s.lengthKm] as const),
    ),
  };
  cache.set(key, sampler);
  return sampler;
}

function sampleLocation(rng: Rng, sampler: RegionSampler, allowed: readonly StateCode[] | null): Location {
  for (let attempt = 0; attempt < 200; attempt++) {
    const nearCity = sampler.segments.size === 0 || rng.chance(CITY_SHARE);
    const loc = nearCity
      ? cityLocation(rng, sampler.cities.pick(rng))
      : interstateLocation(rng, sampler.segments.pick(rng));
    if (loc && (!allowed || allowed.includes(loc.state))) return loc;
  }
  // Practically unreachable (acceptance is > 90%); fall back to a city centre, which is always valid.
  const city = sampler.cities.pick(rng);
  return { lat: city.lat, lng: city.lng, state: city.state, city: city.name, route: null, exit: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Station attributes

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

const HAS_DEF: Readonly<Record<Brand, number>> = {
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
const AMENITY_ODDS: Readonly<Record<Brand, AmenityOdds>> = {
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

/** Independent or regional operators used for the "other" brand; `states` limits a real regional name to its area. */
const INDEPENDENT_CHAINS: readonly { name: (city: string, n: number) => string; states?: readonly StateCode[] }[] = [
  { name: (city) => `Sapp Bros. ${city}`, states: ["NE", "IA", "CO", "UT", "WY", "MO", "SD", "IL", "PA"] },
  { name: (city) => `Bosselman Travel Center ${city}`, states: ["NE", "KS", "MO", "WY"] },
  { name: (_city, n) => `Road Ranger #${n}`, states: ["IL", "IA", "WI", "MO", "IN", "KY", "TX", "OK", "NE"] },
  { name: (_city, n) => `Town Pump #${n}`, states: ["MT"] },
  { name: (_city, n) => `Maverik #${n}`, states: ["UT", "ID", "NV", "WY", "CO", "NM", "MT", "AZ"] },
  { name: (city) => `Wilco Travel Plaza ${city}`, states: ["NC", "SC", "VA", "GA", "TN", "AL"] },
  { name: (city) => `Petro-Express ${city}` },
  { name: (city) => `Roady's ${city}` },
  { name: (city) => `AMBEST ${city}` },
];
const INDEPENDENT_OWNERS = [
  "Joe",
  "Bubba",
  "Hank",
  "Earl",
  "Buddy",
  "Rudy",
  "Smitty",
  "Dusty",
  "Lucky",
  "Red",
  "Mack",
  "Gus",
  "Rosie",
  "Dot",
  "Pete",
  "Walt",
  "Betty",
  "Sal",
] as const;
const INDEPENDENT_NAMES = [
  "Big Rig Fuel Stop",
  "Crossroads Travel Center",
  "Interstate Fuel Stop",
  "Midway Travel Plaza",
  "Eagle Fuel Stop",
  "Prairie Fuel Stop",
  "Road King Truck Plaza",
  "Diesel Depot",
  "Four Corners Truck Stop",
  "Freeway Fuel & Food",
  "Gateway Travel Plaza",
  "Long Haul Fuel Center",
] as const;

function independentName(rng: Rng, loc: Location, n: number): string {
  const roll = rng.next();
  if (roll < 0.35) {
    const chains = INDEPENDENT_CHAINS.filter((c) => !c.states || c.states.includes(loc.state));
    return rng.pick(chains).name(loc.city, n);
  }
  if (roll < 0.6)
    return `${rng.pick(INDEPENDENT_OWNERS)}'s ${rng.pick(["Truck Plaza", "Truck Stop", "Fuel Stop", "Travel Center"])}`;
  if (roll < 0.8) return `${loc.city} ${rng.pick(["Truck Plaza", "Travel Plaza", "Truck Stop", "Fuel Center"])}`;
  if (loc.route && roll < 0.88) return `${loc.route} Truck Stop`;
  return rng.pick(INDEPENDENT_NAMES);
}

function stationName(rng: Rng, brand: Brand, loc: Location, n: number): string {
  switch (brand) {
    case "pilot":
      return `Pilot Travel Center #${n}`;
    case "loves":
      return `Love's Travel Stop #${n}`;
    case "ta":
      return `TA ${loc.city}`;
    case "petro":
      return `Petro ${loc.city}`;
    case "flyingj":
      return `Flying J Travel Center #${n}`;
    case "kwiktrip":
      return `Kwik Trip #${n}`;
    case "caseys":
      return `Casey's #${n}`;
    case "other":
      return independentName(rng, loc, n);
  }
}

/** Names are unique: a clash gets the city ("Gateway Travel Plaza - Tulsa"), then a side of town, then the number. */
function uniqueName(base: string, city: string, used: Set<string>, n: number): string {
  const located = base.includes(city) ? base : `${base} - ${city}`;
  const candidates = [
    base,
    located,
    ...["East", "West", "North", "South"].map((d) => `${located} ${d}`),
    `${located} #${n}`,
  ];
  for (const candidate of candidates) {
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
  let i = 2;
  while (used.has(`${located} (${i})`)) i++;
  used.add(`${located} (${i})`);
  return `${located} (${i})`;
}

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

function address(rng: Rng, loc: Location): string {
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

function zipFor(rng: Rng, state: StateCode): string {
  const [lo, hi] = rng.pick(STATE_ZIP3[state]);
  return `${String(rng.int(lo, hi)).padStart(3, "0")}${String(rng.int(1, 99)).padStart(2, "0")}`;
}

function phoneFor(rng: Rng, state: StateCode): string {
  // 555-0100..0199 is reserved for fictional use, so these numbers never ring a real person.
  return `(${rng.pick(STATE_AREA_CODES[state])}) 555-01${String(rng.int(0, 99)).padStart(2, "0")}`;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Pump prices end in 9: x.xx9. */
const pumpPrice = (milli: number): number => Math.floor(milli / 10) * 10 + 9;

function pricesFor(rng: Rng, brand: Brand, state: StateCode, hasDef: boolean): StationSeed["prices"] {
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

function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Generates `count` stations (0 … 99,999). Same (rng state, count, now) → identical output. The array is sorted by
 * `locNum`.
 */
export function generateStations(rng: Rng, count: number, now: Date): StationSeed[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_STATIONS) {
    throw new RangeError(`count must be an integer in 0..${MAX_STATIONS}, got ${count}`);
  }
  const nowSec = Math.floor(now.getTime() / 1000);
  if (!Number.isFinite(nowSec)) throw new RangeError("now must be a valid Date");

  const geo = getGeography();
  const samplers = new Map<string, RegionSampler>();
  const brandPicker = new Picker(BRANDS.map((b) => [b, BRAND_SHARES[b]] as const));
  const usedLocNums = new Set<number>();
  const usedNames = new Set<string>();
  const stations: StationSeed[] = [];

  const build = (brand: Brand, loc: Location): StationSeed => {
    const id = rng.uuid();
    let n = rng.int(1, MAX_STATIONS);
    while (usedLocNums.has(n)) n = rng.int(1, MAX_STATIONS);
    usedLocNums.add(n);
    const name = uniqueName(stationName(rng, brand, loc, n), loc.city, usedNames, n);
    const hasDef = rng.chance(HAS_DEF[brand]);
    const odds = AMENITY_ODDS[brand];
    const amenities = AMENITIES.filter((a) => rng.chance(odds[a]));
    const ago = rng.chance(STALE_SHARE) ? rng.int(2 * 86_400, 10 * 86_400) : rng.int(30, 86_399);
    return {
      id,
      locNum: String(n).padStart(5, "0"),
      name,
      brand,
      address: address(rng, loc),
      city: loc.city,
      state: loc.state,
      zip: zipFor(rng, loc.state),
      lat: loc.lat,
      lng: loc.lng,
      phone: phoneFor(rng, loc.state),
      amenities,
      hasDef,
      prices: pricesFor(rng, brand, loc.state, hasDef),
      priceUpdatedAt: isoSeconds(nowSec - ago),
    };
  };

  // Coverage: with enough stations, every state (and DC) gets one at its largest city first.
  if (count >= 4 * STATES.length) {
    for (const state of STATES) {
      const city = geo.largestCity.get(state);
      if (!city) throw new Error(`no city for ${state}`);
      const brand = new Picker(brandsAllowedIn(state).map((b) => [b, BRAND_SHARES[b]] as const)).pick(rng);
      let loc: Location | null = null;
      for (let attempt = 0; attempt < 50 && !loc; attempt++) loc = cityLocation(rng, city);
      stations.push(
        build(brand, loc ?? { lat: city.lat, lng: city.lng, state, city: city.name, route: null, exit: null }),
      );
    }
  }

  while (stations.length < count) {
    const brand = brandPicker.pick(rng);
    const region = BRAND_REGIONS[brand] ?? null;
    const loc = sampleLocation(rng, regionSampler(samplers, region), region);
    stations.push(build(brand, loc));
  }

  return stations.sort((a, b) => (a.locNum < b.locNum ? -1 : a.locNum > b.locNum ? 1 : 0));
}

/** Brands a station in `state` may carry. */
export function brandsAllowedIn(state: StateCode): Brand[] {
  return BRANDS.filter((b) => BRAND_REGIONS[b]?.includes(state) ?? true);
}
