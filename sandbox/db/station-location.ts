/**
 * Where a station goes: near a city (uniform in the city's disc) or along an interstate segment (a uniform point
 * picked by length, jittered sideways), checked cheaply and drawn again when implausible.
 */
import { CITIES, type City, type StateCode } from "./geo-data";
import {
  DEG,
  getGeography,
  haversineKm,
  inStateBounds,
  isPlausibleLocation,
  KM_PER_DEG,
  MAX_PLACE_KM,
  nearestPlace,
  type Segment,
} from "./geography";
import { Picker } from "./picker";
import type { Rng } from "./rng";

/** Share of stations placed near a city (the rest go along interstates). */
const CITY_SHARE = 0.55;
/** No interstate station closer than this to a state-line marker. */
const STATE_LINE_CLEARANCE_KM = 3;

export interface Location {
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

export function cityLocation(rng: Rng, city: City): Location | null {
  const { lat, lng } = inDisc(rng, city);
  if (!isPlausibleLocation(lat, lng, city.state)) return null;
  return { lat, lng, state: city.state, city: city.name, route: null, exit: null };
}

/** The city centre itself, which is always a valid location. */
export function cityCentre(city: City): Location {
  return { lat: city.lat, lng: city.lng, state: city.state, city: city.name, route: null, exit: null };
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
  if (!inStateBounds(lat, lng, state)) return null;
  const near = nearestPlace(lat, lng, state);
  if (!near.place || near.distanceKm > MAX_PLACE_KM) return null;
  const exit = Math.max(1, Math.round(seg.mileA + (seg.mileB - seg.mileA) * t));
  return { lat, lng, state, city: near.place.name, route: seg.route, exit };
}

/** City and segment pickers, restricted to a set of states (null = everywhere), built on first use. */
export interface RegionSampler {
  cities: Picker<City>;
  segments: Picker<Segment>;
}

export function regionSampler(cache: Map<string, RegionSampler>, states: readonly StateCode[] | null): RegionSampler {
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

export function sampleLocation(rng: Rng, sampler: RegionSampler, allowed: readonly StateCode[] | null): Location {
  for (let attempt = 0; attempt < 200; attempt++) {
    const nearCity = sampler.segments.size === 0 || rng.chance(CITY_SHARE);
    const loc = nearCity
      ? cityLocation(rng, sampler.cities.pick(rng))
      : interstateLocation(rng, sampler.segments.pick(rng));
    if (loc && (!allowed || allowed.includes(loc.state))) return loc;
  }
  // Practically unreachable (acceptance is > 90%); fall back to a city centre, which is always valid.
  return cityCentre(sampler.cities.pick(rng));
}
