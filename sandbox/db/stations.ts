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
import { STATES } from "./geo-data";
import { getGeography } from "./geography";
import { Picker } from "./picker";
import type { Rng } from "./rng";
import { address, AMENITY_ODDS, HAS_DEF, phoneFor, pricesFor, zipFor } from "./station-attributes";
import {
  AMENITIES,
  type Brand,
  BRAND_REGIONS,
  BRAND_SHARES,
  BRANDS,
  brandsAllowedIn,
  MAX_STATIONS,
  STALE_SHARE,
  type StationSeed,
} from "./station-catalog";
import {
  cityCentre,
  cityLocation,
  type Location,
  type RegionSampler,
  regionSampler,
  sampleLocation,
} from "./station-location";
import { stationName, uniqueName } from "./station-names";
import { isoUtc } from "./timezones";

/** What stays unique across one catalog while it is generated. */
interface CatalogState {
  rng: Rng;
  nowSec: number;
  usedLocNums: Set<number>;
  usedNames: Set<string>;
}

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

  const state: CatalogState = { rng, nowSec, usedLocNums: new Set(), usedNames: new Set() };
  const samplers = new Map<string, RegionSampler>();
  const brandPicker = new Picker(BRANDS.map((b) => [b, BRAND_SHARES[b]] as const));
  // Coverage: with enough stations, every state (and DC) gets one at its largest city first.
  const stations: StationSeed[] = count >= 4 * STATES.length ? coverEveryState(state) : [];

  while (stations.length < count) {
    const brand = brandPicker.pick(rng);
    const region = BRAND_REGIONS[brand] ?? null;
    const loc = sampleLocation(rng, regionSampler(samplers, region), region);
    stations.push(buildStation(state, brand, loc));
  }

  return stations.sort((a, b) => (a.locNum < b.locNum ? -1 : a.locNum > b.locNum ? 1 : 0));
}

/** One station per state (and DC) at its largest city, with a brand allowed there. */
function coverEveryState(state: CatalogState): StationSeed[] {
  const { rng } = state;
  const geo = getGeography();
  return STATES.map((code) => {
    const city = geo.largestCity.get(code);
    if (!city) throw new Error(`no city for ${code}`);
    const brand = new Picker(brandsAllowedIn(code).map((b) => [b, BRAND_SHARES[b]] as const)).pick(rng);
    let loc: Location | null = null;
    for (let attempt = 0; attempt < 50 && !loc; attempt++) loc = cityLocation(rng, city);
    return buildStation(state, brand, loc ?? cityCentre(city));
  });
}

/** The draws happen in a fixed order (id, number, name, DEF, amenities, stamp, address, ZIP, phone, prices). */
function buildStation(state: CatalogState, brand: Brand, loc: Location): StationSeed {
  const { rng, usedLocNums, usedNames } = state;
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
    priceUpdatedAt: isoUtc(state.nowSec - ago),
  };
}
