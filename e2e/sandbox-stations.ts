// The stations' expected values, from the sandbox's own API (not through the BFF under test): its catalog, station
// details and the rankings the stations page must show (e2e/stations*.spec.ts).
import type { Page } from "@playwright/test";

import { type DemoKey, expect } from "./fixtures";
import { type Profile, serversOf } from "./profiles";

export interface SandboxStation {
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  price: number | string | null;
  /** Since when the price holds (the savings spec: a price is observed from then until the walk). */
  price_updated_at: string;
}

interface SandboxPage {
  total: number;
  pages: number;
  items: SandboxStation[];
}

export const SANDBOX_PAGE = 500;
/** turf's mean Earth radius (6,371,008.8 m) in statute miles: the same sphere as the page's distances. */
const EARTH_RADIUS_MILES = 6_371_008.8 / 1609.344;

export async function sandboxToken(page: Page, profile: Profile, key: DemoKey): Promise<string> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const response = await page.request.post(`${base}/auth`, { data: { key_id: key.keyId, secret: key.secret } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/** A page of the sandbox's own `/locations` (its filter semantics, both profiles: the search parameter differs). */
export async function sandboxLocations(
  page: Page,
  profile: Profile,
  key: DemoKey,
  query: Record<string, string> = {},
  pageNumber = 1,
): Promise<SandboxPage> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const params = new URLSearchParams({ ...query, page: String(pageNumber), limit: String(SANDBOX_PAGE) });
  const response = await page.request.get(`${base}/locations?${params.toString()}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { data: SandboxPage };
  return body.data;
}

export async function sandboxCatalog(page: Page, profile: Profile, key: DemoKey): Promise<SandboxStation[]> {
  const first = await sandboxLocations(page, profile, key);
  const all = [...first.items];
  for (let p = 2; p <= first.pages; p++) all.push(...(await sandboxLocations(page, profile, key, {}, p)).items);
  return all;
}

export function haversineMiles(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

/** One station's detail as the sandbox answers it: `prices` in the alternative shape only. */
interface SandboxDetail {
  id: string;
  price: number | string | null;
  prices?: Record<string, number | string | null>;
}

/** The sandbox's own detail replies of the given stations (one request each, as the BFF makes them). */
export async function sandboxDetails(
  page: Page,
  profile: Profile,
  key: DemoKey,
  ids: readonly string[],
): Promise<Map<string, SandboxDetail>> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const details = new Map<string, SandboxDetail>();
  for (const id of ids) {
    const response = await page.request.get(`${base}/locations/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as { data?: SandboxDetail } & SandboxDetail;
    details.set(id, body.data ?? body);
  }
  return details;
}

interface Candidate {
  s: SandboxStation;
  miles: number;
}

/** The catalog's stations within `radius` of `origin`, nearest first (then loc number): the order prices are checked in. */
export function nearestFirst(
  catalog: readonly SandboxStation[],
  origin: { lat: number; lng: number },
  radius: number,
): Candidate[] {
  return catalog
    .map((s) => ({ s, miles: haversineMiles(origin, s) }))
    .filter((x) => x.miles <= radius)
    .sort((a, b) => a.miles - b.miles || a.s.loc_num.localeCompare(b.s.loc_num));
}

/** The ranking the page must show for `product` over the checked stations, from the sandbox's detail replies. */
export function productRanking(
  checked: readonly Candidate[],
  details: ReadonlyMap<string, SandboxDetail>,
  product: string,
  count: number,
) {
  const withPrice = checked.map((x) => ({ ...x, price: details.get(x.s.id)?.prices?.[product] ?? null }));
  const ranked = withPrice
    .filter((x): x is Candidate & { price: number | string } => x.price !== null)
    .map((x) => ({ ...x, price: Number(x.price) }))
    .sort((a, b) => a.price - b.price || a.miles - b.miles || a.s.loc_num.localeCompare(b.s.loc_num))
    .slice(0, count);
  return { ranked, without: withPrice.filter((x) => x.price === null) };
}

/** A ranked row as the page must show it. */
export interface Ranked {
  s: SandboxStation;
  price: number;
  miles: number;
}

/** The page's ranking, computed independently: priced stations within the radius, cheapest first, then nearest. */
export function expectedRanking(
  catalog: readonly SandboxStation[],
  origin: { lat: number; lng: number },
  radius: number,
  count: number,
): Ranked[] {
  return catalog
    .filter((s) => s.price !== null)
    .map((s) => ({ s, price: Number(s.price), miles: haversineMiles(origin, s) }))
    .filter((x) => x.miles <= radius)
    .sort((a, b) => a.price - b.price || a.miles - b.miles || a.s.loc_num.localeCompare(b.s.loc_num))
    .slice(0, count);
}
