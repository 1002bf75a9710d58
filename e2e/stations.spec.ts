// The stations journey: the map draws the sandbox's whole catalog, filters change the count, a station's popup and
// detail, "cheapest near here" equals a ranking computed from the sandbox's own data (by the catalog's diesel price, and
// by unleaded or DEF from the stations' details where the detail prices several products), the keyboard path through
// the ranked list, a key without the locations scope, a rate limit during price checks, a failed refresh keeping the
// last catalog, and Leaflet staying off the other pages. Expected values come from the sandbox's API directly (not
// through the BFF under test).
import { execFileSync } from "node:child_process";

import type { Page } from "@playwright/test";

import {
  createSandboxKey,
  type DemoKey,
  expect,
  expectLoaded,
  resetSandboxFaults,
  sameOriginHeaders,
  sessionCookieOf,
  setSandboxFaults,
  signInThroughApi,
  test,
} from "./fixtures";
import { startOwnStack } from "./own-stack";
import { type Profile, serversOf, TILE_ATTRIBUTION, tileServerOrigin } from "./profiles";

interface SandboxStation {
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  price: number | string | null;
}

interface SandboxPage {
  total: number;
  pages: number;
  items: SandboxStation[];
}

const SANDBOX_PAGE = 500;
/** turf's mean Earth radius (6,371,008.8 m) in statute miles: the same sphere as the page's distances. */
const EARTH_RADIUS_MILES = 6_371_008.8 / 1609.344;

async function sandboxToken(page: Page, profile: Profile, key: DemoKey): Promise<string> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const response = await page.request.post(`${base}/auth`, { data: { key_id: key.keyId, secret: key.secret } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/** A page of the sandbox's own `/locations` (its filter semantics, both profiles: the search parameter differs). */
async function sandboxLocations(
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

async function sandboxCatalog(page: Page, profile: Profile, key: DemoKey): Promise<SandboxStation[]> {
  const first = await sandboxLocations(page, profile, key);
  const all = [...first.items];
  for (let p = 2; p <= first.pages; p++) all.push(...(await sandboxLocations(page, profile, key, {}, p)).items);
  return all;
}

function haversineMiles(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
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
async function sandboxDetails(
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
function nearestFirst(
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
function productRanking(
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

const map = (page: Page) => page.getByTestId("station-map");
const CHICAGO = { lat: 41.8781, lng: -87.6298 };
/** Stations checked per step of the product filter. */
const PRICE_CHECK_STEP = 25;

async function findNear(page: Page, origin: { lat: number; lng: number }, radius: number): Promise<void> {
  await page.getByLabel("Near", { exact: true }).fill(`${String(origin.lat)}, ${String(origin.lng)}`);
  await page.getByRole("combobox", { name: "Within" }).selectOption(String(radius));
  await page.getByRole("button", { name: "Find" }).click();
}

/** A ranked row as the page must show it. */
interface Ranked {
  s: SandboxStation;
  price: number;
  miles: number;
}

async function expectRanked(page: Page, expected: readonly Ranked[]): Promise<void> {
  const rows = page.getByTestId("ranked-row");
  await expect(rows).toHaveCount(expected.length);
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(
    expected.map((x) => x.s.id),
  );
  expect(await page.getByTestId("ranked-price").allTextContents()).toEqual(
    expected.map((x) => `$${x.price.toFixed(3)}`),
  );
  expect(await page.getByTestId("ranked-distance").allTextContents()).toEqual(
    expected.map((x) => `${x.miles.toFixed(1)} mi`),
  );
}

async function openStations(page: Page, query = ""): Promise<void> {
  await page.goto(`/stations${query}`);
  await expect(page.getByRole("heading", { name: "Stations", level: 1 })).toBeVisible();
  await expect(map(page)).toHaveAttribute("data-drawn-count", /^\d+$/, { timeout: 30_000 });
  await expectLoaded(page);
}

test("the map draws every station of the sandbox's catalog", async ({ loggedInPage: page, profile, demoKeys }) => {
  const { total } = await sandboxLocations(page, profile, demoKeys["demo-full"]);
  expect(total).toBeGreaterThan(1000);
  await openStations(page);
  await expect(map(page)).toHaveAttribute("data-drawn-count", String(total));
  await expect(page.getByTestId("station-count")).toHaveText(
    `Showing ${total.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} stations`,
  );
  // The legend prints 7 classes for the whole catalog, and the draw was measured.
  await expect(page.getByTestId("legend-class")).toHaveCount(7);
  const measures = await page.evaluate(() => performance.getEntriesByName("ffd:map-draw").length);
  expect(measures).toBeGreaterThan(0);
  // The catalog walk reported its pages.
  const progress = (await (await page.request.get("/api/locations/progress")).json()) as {
    state: string;
    pages: number;
    pagesDone: number;
    loaded: number;
  };
  expect(progress).toMatchObject({
    state: "done",
    pages: Math.ceil(total / SANDBOX_PAGE),
    pagesDone: Math.ceil(total / SANDBOX_PAGE),
    loaded: total,
  });
});

test("brand and state filters change the drawn count to the sandbox's own filtered totals, and live in the URL", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const key = demoKeys["demo-full"];
  const loves = (await sandboxLocations(page, profile, key, { brand: "loves" })).total;
  const lovesTx = (await sandboxLocations(page, profile, key, { brand: "loves", state: "TX" })).total;
  expect(lovesTx).toBeGreaterThan(0);
  await openStations(page);
  await page.getByRole("combobox", { name: "Brand" }).selectOption("loves");
  await expect(page).toHaveURL((url) => url.searchParams.get("brand") === "loves");
  await expect(map(page)).toHaveAttribute("data-drawn-count", String(loves));
  await page.getByRole("combobox", { name: "State" }).selectOption("TX");
  await expect(map(page)).toHaveAttribute("data-drawn-count", String(lovesTx));
  await page.reload();
  await expect(map(page)).toHaveAttribute("data-drawn-count", String(lovesTx), { timeout: 30_000 });
  await expect(page.getByTestId("station-count")).toContainText(`Showing ${lovesTx.toLocaleString("en-US")} of`);
});

test("clicking a station opens its popup, and the popup leads to its detail", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const station = catalog.find((s) => s.price !== null && s.brand === "pilot") ?? catalog[0];
  if (station === undefined) throw new Error("empty catalog");
  // Searching its loc number leaves this station alone on the map, so the click cannot hit a neighbour.
  await openStations(page, `?search=${station.loc_num}`);
  await expect(map(page)).toHaveAttribute("data-drawn-count", "1");
  const position = await page.evaluate(
    (id) =>
      (
        window as Window & { __ffdStationMap?: { positionOf: (id: string) => { x: number; y: number } | null } }
      ).__ffdStationMap?.positionOf(id) ?? null,
    station.id,
  );
  expect(position).not.toBeNull();
  if (position === null) return;
  await map(page).locator(".leaflet-container").click({ position });
  const popup = page.getByTestId("station-popup");
  await expect(popup).toContainText(station.name);
  await expect(popup).toContainText(`$${Number(station.price).toFixed(3)}`);
  // And the other way round from the list: the station's row in the ranked list is the selected one, and it is in the URL.
  await expect(
    page
      .locator(`[data-testid="ranked-row"][data-station-id="${station.id}"]`)
      .getByRole("button", { name: station.name }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL((url) => url.searchParams.get("station") === station.id);
  await popup.getByRole("link", { name: "Station details" }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/stations/${station.id}`);
  await expect(page.getByRole("heading", { name: station.name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("detail-price")).toContainText(`$${Number(station.price).toFixed(3)}`);
  await expect(page.getByRole("heading", { name: "Your fleet's recent fuel here" })).toBeVisible();
  await expectLoaded(page);
});

/** The page's ranking, computed independently: priced stations within the radius, cheapest first, then nearest. */
function expectedRanking(
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

const AMARILLO = { lat: 35.222, lng: -101.8313 };

test("cheapest near a point equals the ranking computed from the sandbox's data", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const origin = AMARILLO;
  const radius = 100;
  const expected = expectedRanking(catalog, origin, radius, 10);
  expect(expected.length).toBeGreaterThan(2);

  await openStations(page);
  await findNear(page, origin, radius);
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("near") === "35.2220,-101.8313" && url.searchParams.get("radius") === "100",
  );
  await expectRanked(page, expected);
  await expect(page.getByTestId("ranked-row").first()).toContainText("below area average");
  // The map brought the radius into view: the ring is large on screen and inside the map (at the whole-US view a
  // 100-mile ring is a few pixels wide).
  const box = await map(page).boundingBox();
  const ring = await map(page).locator("path.ffd-radius-ring").boundingBox();
  if (box === null || ring === null) throw new Error("the map or its radius ring is not on screen");
  expect(ring.height).toBeGreaterThan(box.height / 2);
  expect(ring.y).toBeGreaterThanOrEqual(box.y - 1);
  expect(ring.y + ring.height).toBeLessThanOrEqual(box.y + box.height + 1);
});

test("'Use my location' (permission granted) ranks the cheapest stations around the browser's position", async ({
  loggedInPage: page,
  profile,
  demoKeys,
  appOrigin,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  // Near Oklahoma City: the browser reports this position once the page may ask for it.
  const position = { latitude: 35.4676, longitude: -97.5164 };
  await page.context().grantPermissions(["geolocation"], { origin: appOrigin });
  await page.context().setGeolocation(position);
  const expected = expectedRanking(catalog, { lat: position.latitude, lng: position.longitude }, 50, 10);
  expect(expected.length).toBeGreaterThan(2);
  await openStations(page, "?radius=50");
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("near") === "35.4676,-97.5164");
  await expect(page.getByLabel("Near", { exact: true })).toHaveValue("your location");
  await expectRanked(page, expected);
});

test("'Use my location' with the permission refused says so and keeps the typed-place path", async ({
  loggedInPage: page,
}) => {
  // No permission granted: Chromium answers the page's request with PERMISSION_DENIED, as when a user says no.
  await page.context().clearPermissions();
  await openStations(page);
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByText("Location permission was denied. Type a place or click the map instead.")).toBeVisible();
  expect(new URL(page.url()).searchParams.get("near")).toBeNull();
  await page.getByLabel("Near", { exact: true }).fill("Amarillo, TX");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("near") !== null);
  await expect(page.getByTestId("ranked-row").first()).toBeVisible();
});

/** Switch the e2e tile server's answers for this profile ("fail": every tile a 503). */
async function setTiles(page: Page, profile: Profile, mode: "ok" | "fail"): Promise<void> {
  const response = await page.request.put(`${tileServerOrigin()}/${profile}/mode`, {
    data: mode,
    headers: { "Content-Type": "text/plain" },
  });
  expect(response.status()).toBe(204);
}

async function tileStats(page: Page, profile: Profile): Promise<{ served: number; refused: number }> {
  return (await (await page.request.get(`${tileServerOrigin()}/${profile}/stats`)).json()) as {
    served: number;
    refused: number;
  };
}

test("tiles from the configured tile server (TILE_URL) show under the stations, with their attribution", async ({
  loggedInPage: page,
  profile,
}) => {
  await setTiles(page, profile, "ok");
  await openStations(page);
  const tile = map(page).locator(".leaflet-tile-pane img.leaflet-tile-loaded").first();
  await expect(tile).toBeVisible();
  expect(await tile.getAttribute("src")).toMatch(new RegExp(`^${tileServerOrigin()}/${profile}/\\d+/\\d+/\\d+\\.png$`));
  expect(await tile.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);
  await expect(map(page).locator(".leaflet-control-attribution")).toContainText(TILE_ATTRIBUTION);
  await expect(map(page).locator(".leaflet-control-attribution")).toContainText("us-atlas");
  await expect(page.getByText("The map tile server could not be reached", { exact: false })).toHaveCount(0);
  expect((await tileStats(page, profile)).served).toBeGreaterThan(0);
});

test("when the tile server fails, the map falls back to its own basemap and says so", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const { total } = await sandboxLocations(page, profile, demoKeys["demo-full"]);
  await setTiles(page, profile, "fail");
  try {
    await openStations(page);
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: "The map tile server could not be reached; the map shows its built-in basemap." }),
    ).toBeVisible();
    // The tile layer is gone (no more requests), the state outlines and every station are still drawn.
    await expect(map(page).locator(".leaflet-tile-pane img")).toHaveCount(0);
    expect(await map(page).locator("path.ffd-state").count()).toBeGreaterThan(40);
    await expect(map(page)).toHaveAttribute("data-drawn-count", String(total));
    await expect(map(page).locator(".leaflet-control-attribution")).not.toContainText(TILE_ATTRIBUTION);
    const { refused, served } = await tileStats(page, profile);
    expect(served).toBe(0);
    expect(refused).toBeGreaterThanOrEqual(4);
  } finally {
    await setTiles(page, profile, "ok");
  }
});

test("keyboard only: Tab to the ranked list, select a station (popup on the map), open its detail", async ({
  loggedInPage: page,
}) => {
  await openStations(page, "?near=35.2220,-101.8313&radius=100");
  const firstRow = page.getByTestId("ranked-row").first();
  const name = (await firstRow.getByRole("button").textContent())?.trim() ?? "";
  const button = firstRow.getByRole("button", { name });
  const MAX_TABS = 60;
  for (let tabs = 0; !(await button.evaluate((el) => el === document.activeElement)); tabs++) {
    expect(tabs, `the first ranked station not reached within ${String(MAX_TABS)} Tab presses`).toBeLessThan(MAX_TABS);
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("station-popup")).toContainText(name);
  await page.keyboard.press("Tab");
  await expect(firstRow.getByRole("link", { name: `Details of ${name}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
});

test("a key without the locations scope is told why the map is empty", async ({ page, appOrigin, profile }) => {
  const stdout = execFileSync(
    process.execPath,
    [
      "node_modules/tsx/dist/cli.mjs",
      "sandbox/cli.ts",
      "keys",
      "create",
      "--customer",
      "PFL",
      "--scopes",
      "account,transactions",
      "--label",
      "e2e-no-locations",
      "--json",
      "--db",
      serversOf(profile).db,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  const created = JSON.parse(stdout) as { key_id: string; secret: string };
  await signInThroughApi(page.request, appOrigin, { keyId: created.key_id, secret: created.secret });
  await page.goto("/stations");
  await expect(page.getByText("The map needs the locations scope on your API key.", { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole("alert").filter({ hasText: /scope/i })).toBeVisible();
});

test("a failed refresh keeps the last catalog on screen with its age", async ({ loggedInPage: page }) => {
  await openStations(page);
  const drawn = await map(page).getAttribute("data-drawn-count");
  // A BFF failure on cue: mocked in the browser because the real BFF would answer from its 5-minute cache.
  await page.route(
    (url) => url.pathname === "/api/locations" && url.searchParams.get("all") === "1",
    (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "upstream_unavailable", message: "The Fleet Fuel API is not answering." },
        }),
      }),
  );
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByText("The catalog could not be refreshed", { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("catalog-age")).toContainText("Catalog loaded");
  await expect(map(page)).toHaveAttribute("data-drawn-count", drawn ?? "");
});

test("Leaflet is loaded on the stations page only", async ({ loggedInPage: page }) => {
  for (const path of ["/", "/transactions"]) {
    await page.goto(path);
    await expectLoaded(page);
    expect(await page.evaluate(() => typeof (window as Window & { L?: unknown }).L), path).toBe("undefined");
  }
  await openStations(page);
  expect(await page.evaluate(() => typeof (window as Window & { L?: unknown }).L)).toBe("object");
});

test("unleaded near a point: the ranked list equals a ranking of the sandbox's own detail replies, and more stations are checked on request", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product filter");
  test.setTimeout(120_000);
  const key = demoKeys["demo-full"];
  const radius = 50;
  const count = 10;
  const candidates = nearestFirst(await sandboxCatalog(page, profile, key), CHICAGO, radius);
  expect(candidates.length, "the test needs more stations within the radius than one check step").toBeGreaterThan(
    PRICE_CHECK_STEP,
  );
  const details = await sandboxDetails(
    page,
    profile,
    key,
    candidates.slice(0, 2 * PRICE_CHECK_STEP).map((x) => x.s.id),
  );

  await openStations(page);
  await page.getByRole("combobox", { name: "Product" }).selectOption("unleaded");
  await expect(page).toHaveURL((url) => url.searchParams.get("product") === "unleaded");
  await findNear(page, CHICAGO, radius);
  const status = page.getByTestId("price-check-status");
  await expect(status).toContainText(
    `Unleaded prices checked at the ${String(PRICE_CHECK_STEP)} nearest of ${String(candidates.length)} stations within ${String(radius)} mi.`,
    { timeout: 30_000 },
  );
  const first = productRanking(candidates.slice(0, PRICE_CHECK_STEP), details, "unleaded", count);
  // The unleaded ranking differs from the diesel one, or this test would prove nothing about the product.
  const byDiesel = candidates
    .slice(0, PRICE_CHECK_STEP)
    .filter((x) => x.s.price !== null)
    .sort((a, b) => Number(a.s.price) - Number(b.s.price) || a.miles - b.miles);
  expect(first.ranked.map((x) => x.s.id)).not.toEqual(byDiesel.slice(0, count).map((x) => x.s.id));
  await expectRanked(page, first.ranked);
  await expect(page.getByRole("columnheader", { name: "Unleaded", exact: true })).toBeVisible();
  await expect(page.getByTestId("legend-product-note")).toContainText("The map colours diesel prices");

  await page.getByRole("button", { name: `Check ${String(PRICE_CHECK_STEP)} more` }).click();
  await expect(status).toContainText(
    `Unleaded prices checked at the ${String(2 * PRICE_CHECK_STEP)} nearest of ${String(candidates.length)} stations`,
    { timeout: 30_000 },
  );
  await expectRanked(
    page,
    productRanking(candidates.slice(0, 2 * PRICE_CHECK_STEP), details, "unleaded", count).ranked,
  );

  // Selecting a row shows the station on the map, with its unleaded price next to the catalog's diesel price.
  const top = productRanking(candidates.slice(0, 2 * PRICE_CHECK_STEP), details, "unleaded", count).ranked[0];
  if (top === undefined) throw new Error("no ranked station");
  const button = page.getByTestId("ranked-row").first().getByRole("button", { name: top.s.name });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("popup-product")).toHaveText(`Unleaded $${top.price.toFixed(3)}`);
  await expect(page.getByTestId("station-popup")).toContainText(`Diesel $${Number(top.s.price).toFixed(3)}`);
  await expectLoaded(page);
});

test("DEF near a point: stations whose detail has no DEF price are listed as such, the others ranked", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no product filter");
  test.setTimeout(90_000);
  const key = demoKeys["demo-full"];
  const radius = 50;
  const checked = nearestFirst(await sandboxCatalog(page, profile, key), CHICAGO, radius).slice(0, PRICE_CHECK_STEP);
  const details = await sandboxDetails(
    page,
    profile,
    key,
    checked.map((x) => x.s.id),
  );
  const expected = productRanking(checked, details, "def", 10);
  expect(expected.without.length, "the test needs a station without DEF among the nearest").toBeGreaterThan(0);

  // A shared link: the product and the point come from the URL.
  await openStations(page, `?product=def&near=${String(CHICAGO.lat)},${String(CHICAGO.lng)}&radius=${String(radius)}`);
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveValue("def");
  await expect(page.getByTestId("price-check-status")).toContainText(
    `DEF prices checked at the ${String(PRICE_CHECK_STEP)} nearest`,
    { timeout: 30_000 },
  );
  await expectRanked(page, expected.ranked);
  const unpriced = page.getByTestId("unpriced-row");
  await expect(unpriced).toHaveCount(expected.without.length);
  expect(await unpriced.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(
    expected.without.map((x) => x.s.id),
  );
  expect(await page.getByTestId("unpriced-label").allTextContents()).toEqual(expected.without.map(() => "No DEF"));
  await expect(page.getByTestId("price-check-results")).toContainText(
    `${String(expected.without.length)} ${expected.without.length === 1 ? "station has" : "stations have"} none`,
  );
  // Back to diesel: the catalog's ranking, no price checks.
  await page.getByRole("combobox", { name: "Product" }).selectOption("diesel");
  await expect(page).toHaveURL((url) => !url.searchParams.has("product"));
  await expect(page.getByTestId("price-check-status")).toHaveCount(0);
  await expect(page.getByTestId("legend-product-note")).toHaveCount(0);
});

test("a rate limit during the price checks shows the page's banner, and the checks resume by themselves after the wait", async ({
  page,
  appOrigin,
  profile,
}) => {
  test.skip(profile !== "alternative", "the primary station detail gives one price: no price checks");
  test.setTimeout(150_000);
  // Its own key: the BFF pauses the key a 429 was for, and the other tests' key must not wait.
  await signInThroughApi(page.request, appOrigin, createSandboxKey(profile));
  try {
    await openStations(page, "?product=unleaded");
    await expect(page.getByTestId("nearby-summary")).toContainText("compared near a point");
    // Beyond 30 s the BFF does not make the person wait behind a spinner: it answers 429 with the wait at once.
    await setSandboxFaults(profile, { rateLimitSeconds: 35 });
    await findNear(page, CHICAGO, 50);
    await expect(page.getByTestId("rate-limit-banner")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Paused by the request limit")).toBeVisible();
    await expect(page.getByTestId("ranked-row")).toHaveCount(0);
    await resetSandboxFaults(profile);
    // After the countdown the page asks again by itself. The 429 also taught the BFF a lower budget for this key
    // (lib/fleet-api learns from every 429), so the checks may go on in smaller steps: resuming is what counts here.
    await expect(page.getByTestId("ranked-row").first()).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("rate-limit-banner")).toBeHidden();
    await expect(page.getByText("Paused by the request limit")).toBeHidden();
    await expect(page.getByTestId("price-check-status")).toContainText(
      /Unleaded prices checked at|checking unleaded prices/,
    );
  } finally {
    await resetSandboxFaults(profile);
  }
});

test("where the station detail gives one price, there is no product control and a product link falls back to diesel", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.skip(profile !== "primary", "the alternative station detail prices several products");
  // What the sandbox's detail gives (the BFF probes the catalog's first station): one price, no per-product prices.
  const [firstStation] = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  if (firstStation === undefined) throw new Error("empty catalog");
  const detail = (await sandboxDetails(page, profile, demoKeys["demo-full"], [firstStation.id])).get(firstStation.id);
  expect(detail?.prices).toBeUndefined();
  expect(detail?.price).not.toBeUndefined();
  // The page learns the detail's products from the BFF; only after that answer is the absence meaningful.
  const learned = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/locations/products");
  await openStations(page);
  const reply = await learned;
  expect(reply.status()).toBe(200);
  expect(((await reply.json()) as { hasSeveralPrices: boolean }).hasSeveralPrices).toBe(false);
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Brand" })).toBeVisible();

  await openStations(page, `?product=unleaded&near=${String(CHICAGO.lat)},${String(CHICAGO.lng)}&radius=50`);
  await expect(page.getByTestId("product-unavailable")).toContainText("one price per station");
  await expect(page.getByRole("combobox", { name: "Product" })).toHaveCount(0);
  await expect(page.getByTestId("ranked-row").first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Price", exact: true })).toBeVisible();
  await expect(page.getByTestId("price-check-status")).toHaveCount(0);
});

test("the selected station lives in the URL: a shared link opens on its popup and highlighted row", async ({
  loggedInPage: page,
}) => {
  await openStations(page, "?near=35.2220,-101.8313&radius=100");
  const row = page.getByTestId("ranked-row").nth(1);
  const id = (await row.getAttribute("data-station-id")) ?? "";
  const name = (await row.getByRole("button").textContent())?.trim() ?? "";
  await row.getByRole("button", { name }).click();
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("station") === id && url.searchParams.get("radius") === "100",
  );
  const shared = page.url();
  await page.goto("/");
  await page.goto(shared);
  await expect(page.getByTestId("station-popup")).toContainText(name, { timeout: 30_000 });
  await expect(page.getByTestId("ranked-row").nth(1).getByRole("button", { name })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // Closing the popup clears the selection from the URL.
  await map(page).locator(".leaflet-popup-close-button").click();
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("station") === null && url.searchParams.get("near") === "35.2220,-101.8313",
  );
});

test("the radius ring is drawn in the theme's ink (visible on the dark basemap too)", async ({
  loggedInPage: page,
}) => {
  for (const [scheme, ink] of [
    ["light", "#0f172a"],
    ["dark", "#f1f5f9"],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openStations(page, "?near=35.2220,-101.8313&radius=100");
    await expect(map(page).locator("path.ffd-radius-ring")).toHaveAttribute("stroke", ink);
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Issue 13: places, the map's zoom and colours, the ranking beside the map, the popup's brand, the page's height,
// the catalog's wait for an export, the station detail's purchases and its 404.

/** The catalog's stations of a city name, grouped by state: what a person typing the name may mean. */
function placesNamed(catalog: readonly SandboxStation[], city: string): Map<string, SandboxStation[]> {
  const byState = new Map<string, SandboxStation[]>();
  for (const s of catalog) {
    if (s.city !== city) continue;
    byState.set(s.state, [...(byState.get(s.state) ?? []), s]);
  }
  return byState;
}

const centreOf = (stations: readonly SandboxStation[]) => ({
  lat: stations.reduce((n, s) => n + s.lat, 0) / stations.length,
  lng: stations.reduce((n, s) => n + s.lng, 0) / stations.length,
});

test("a place name several states have offers each of them, and the chosen one is that city (Springfield, Portland, Columbus)", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.setTimeout(60_000);
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  await openStations(page);
  const near = page.getByLabel("Near", { exact: true });
  for (const [name, chosen, how] of [
    ["Springfield", "MO", "keyboard"],
    ["Portland", "OR", "click"],
    ["Columbus", "OH", "click"],
  ] as const) {
    const places = placesNamed(catalog, name);
    expect(places.size, `${name} is in several states of the sandbox's catalog`).toBeGreaterThan(1);
    const labels = [...places.keys()].map((state) => `${name}, ${state}`).sort((a, b) => a.localeCompare(b));
    await near.fill(name);
    await page.getByRole("button", { name: "Find" }).click();
    const choices = page.getByRole("group", {
      name: `“${name}” is a place in ${String(places.size)} states. Which one?`,
    });
    await expect(choices.getByRole("button")).toHaveText(labels);
    const wanted = choices.getByRole("button", { name: `${name}, ${chosen}`, exact: true });
    if (how === "keyboard") {
      // Focus is on the first choice; the others are a Tab away each.
      await expect(choices.getByRole("button").first()).toBeFocused();
      for (let i = 0; i < labels.indexOf(`${name}, ${chosen}`); i++) await page.keyboard.press("Tab");
      await expect(wanted).toBeFocused();
      await page.keyboard.press("Enter");
    } else {
      await wanted.click();
    }
    const stations = places.get(chosen) ?? [];
    const centre = centreOf(stations);
    const expectedNear = `${centre.lat.toFixed(4)},${centre.lng.toFixed(4)}`;
    await expect(page).toHaveURL(
      (url) => url.searchParams.get("near") === expectedNear && url.searchParams.get("place") === `${name}, ${chosen}`,
    );
    await expect(choices).toHaveCount(0);
    await expect(near).toHaveValue(`${name}, ${chosen}`);
    // That city: every one of its stations is close to the point (averaging the states put Springfield on the IL/IN border).
    const origin = { lat: Number(centre.lat.toFixed(4)), lng: Number(centre.lng.toFixed(4)) };
    for (const s of stations)
      expect(haversineMiles(origin, s), `${s.name} from the chosen ${name}, ${chosen}`).toBeLessThan(30);
    await expect(page.getByTestId("nearby-summary")).toContainText(`Near ${name}, ${chosen}:`);
    await expectRanked(page, expectedRanking(catalog, origin, 50, 10));
  }
  // With its state, the name is one place at once.
  await near.fill("Springfield, IL");
  await page.getByRole("button", { name: "Find" }).click();
  const il = centreOf(placesNamed(catalog, "Springfield").get("IL") ?? []);
  await expect(page).toHaveURL((url) => url.searchParams.get("near") === `${il.lat.toFixed(4)},${il.lng.toFixed(4)}`);
  await expect(page.getByTestId("place-choices")).toHaveCount(0);
});

interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

const viewBounds = (page: Page) =>
  page.evaluate(
    () =>
      (window as Window & { __ffdStationMap?: { viewBounds: () => ViewBounds } }).__ffdStationMap?.viewBounds() ?? null,
  );

test("choosing a state zooms the map to it; clearing it shows the whole country again", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const texas = catalog.filter((s) => s.state === "TX");
  await openStations(page);
  const country = await viewBounds(page);
  if (country === null) throw new Error("the map's test hook is missing");
  await page.getByRole("combobox", { name: "State" }).selectOption("TX");
  await expect(map(page)).toHaveAttribute("data-drawn-count", String(texas.length));
  // Texas fills the view: every Texan station inside, the view far narrower than the country's.
  await expect
    .poll(async () => {
      const b = await viewBounds(page);
      return b !== null && b.east - b.west < (country.east - country.west) / 2;
    })
    .toBe(true);
  const tx = await viewBounds(page);
  if (tx === null) throw new Error("no view");
  for (const s of texas)
    expect(s.lat >= tx.south && s.lat <= tx.north && s.lng >= tx.west && s.lng <= tx.east, `${s.name} in view`).toBe(
      true,
    );
  // Centred on Texas (its outline spans about 25.8–36.5° N, 93.5–106.6° W).
  const centre = { lat: (tx.south + tx.north) / 2, lng: (tx.west + tx.east) / 2 };
  expect(centre.lat).toBeGreaterThan(25.8);
  expect(centre.lat).toBeLessThan(36.5);
  expect(centre.lng).toBeGreaterThan(-106.6);
  expect(centre.lng).toBeLessThan(-93.5);
  await page.getByRole("combobox", { name: "State" }).selectOption("");
  await expect
    .poll(async () => {
      const b = await viewBounds(page);
      return b !== null && b.west <= -120 && b.east >= -70;
    })
    .toBe(true);
});

const DALLAS = { lat: 32.7767, lng: -96.797 };

test("around a point, 'the stations in view' colours by the nearby prices; the legend and the URL say which scale is in force", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const priced = catalog.filter((s) => s.price !== null);
  await openStations(page, `?near=${String(DALLAS.lat)},${String(DALLAS.lng)}&radius=50`);
  const note = page.getByTestId("legend-scale-note");
  await expect(note).toContainText(
    `National scale: classes are sevenths of the prices of all ${catalog.length.toLocaleString("en-US")} stations, nationwide.`,
  );
  await expect(page.getByRole("radio", { name: /National prices/ })).toBeChecked();
  const legendCounts = async () =>
    (await page.getByTestId("legend-class").locator("td:last-child").allTextContents()).reduce(
      (n, text) => n + Number(text.replace(/,/g, "")),
      0,
    );
  expect(await legendCounts()).toBe(priced.length);

  // click, then wait: the radio is controlled by the URL, which the page updates right after the event (check()
  // alone would read the radio before that re-render and call the click lost on a loaded machine).
  const inViewRadio = page.getByRole("radio", { name: /The stations in view/ });
  await inViewRadio.click();
  await expect(inViewRadio).toBeChecked();
  await expect(page).toHaveURL((url) => url.searchParams.get("scale") === "view");
  const bounds = await viewBounds(page);
  if (bounds === null) throw new Error("the map's test hook is missing");
  const inView = priced.filter(
    (s) => s.lat >= bounds.south && s.lat <= bounds.north && s.lng >= bounds.west && s.lng <= bounds.east,
  );
  const inViewAll = catalog.filter(
    (s) => s.lat >= bounds.south && s.lat <= bounds.north && s.lng >= bounds.west && s.lng <= bounds.east,
  );
  expect(inView.length).toBeGreaterThan(7);
  await expect(note).toContainText(
    `Stations in view: classes are sevenths of the prices of the ${String(inViewAll.length)} stations in the map's view`,
  );
  // The classes are those of the stations in view: their counts add up to them, from their cheapest to their priciest.
  await expect.poll(legendCounts).toBe(inView.length);
  const prices = inView.map((s) => Number(s.price)).sort((a, b) => a - b);
  const ranges = await page.getByTestId("legend-class").locator("td:first-of-type").allTextContents();
  expect(ranges[0]?.startsWith(`$${(prices[0] ?? 0).toFixed(3)}`)).toBe(true);
  expect(ranges.at(-1)?.endsWith(`$${(prices.at(-1) ?? 0).toFixed(3)}`)).toBe(true);
  expect(ranges.length).toBeGreaterThanOrEqual(5);
  // A shared link keeps the scale.
  await page.reload();
  await expect(map(page)).toHaveAttribute("data-drawn-count", /^\d+$/, { timeout: 30_000 });
  await expect(page.getByRole("radio", { name: /The stations in view/ })).toBeChecked();
  await expect(note).toContainText("Stations in view:");
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`choosing a row of the ranking keeps the map and the station's popup in view (${String(viewport.width)} px wide)`, async ({
    loggedInPage: page,
  }) => {
    await page.setViewportSize(viewport);
    await openStations(page, `?near=${String(AMARILLO.lat)},${String(AMARILLO.lng)}&radius=250&n=20`);
    const row = page.getByTestId("ranked-row").nth(14);
    const name = (await row.getByRole("button").textContent())?.trim() ?? "";
    // The click scrolls the row into view first, as a person scrolls down to it.
    await row.getByRole("button", { name }).click();
    const popup = page.getByTestId("station-popup");
    await expect(popup).toContainText(name);
    await expect(popup).toBeInViewport({ ratio: 1 });
    await expect(map(page)).toBeInViewport({ ratio: viewport.width >= 1024 ? 0.9 : 0.5 });
  });
}

test("the popup names the station's brand, not its code", async ({ loggedInPage: page, profile, demoKeys }) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  for (const [code, label] of [
    ["other", "Independent or other chain"],
    ["pilot", "Pilot"],
  ] as const) {
    const station = catalog.find((s) => s.brand === code);
    if (station === undefined) throw new Error(`no ${code} station in the catalog`);
    await openStations(page, `?search=${station.loc_num}`);
    await expect(map(page)).toHaveAttribute("data-drawn-count", "1");
    const position = await page.evaluate(
      (id) =>
        (
          window as Window & { __ffdStationMap?: { positionOf: (id: string) => { x: number; y: number } | null } }
        ).__ffdStationMap?.positionOf(id) ?? null,
      station.id,
    );
    if (position === null) throw new Error("the station is not drawn");
    await map(page).locator(".leaflet-container").click({ position });
    await expect(page.getByTestId("station-popup")).toContainText(`${label} · #${station.loc_num}`);
  }
});

test("the stations page is no taller than its layout (no empty scroll space under it)", async ({
  loggedInPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStations(page, `?near=${String(AMARILLO.lat)},${String(AMARILLO.lng)}&radius=250&n=50`);
  await expect(page.getByTestId("ranked-row")).toHaveCount(50);
  const { scrollHeight, layoutBottom } = await page.evaluate(() => {
    const main = document.querySelector("main");
    const bottom =
      main === null
        ? 0
        : main.getBoundingClientRect().bottom +
          window.scrollY +
          Number.parseFloat(getComputedStyle(main).marginBottom || "0");
    return {
      scrollHeight: document.documentElement.scrollHeight,
      layoutBottom: Math.max(Math.ceil(bottom), window.innerHeight),
    };
  });
  expect(scrollHeight).toBeLessThanOrEqual(layoutBottom + 1);
});

test("while an export of the same key holds the request budget, the catalog's progress says so, then the map loads", async ({
  page,
  profile,
}) => {
  test.setTimeout(180_000);
  // Its own sandbox and app with a small budget (10 requests per 6 s): the shared ones have a budget no test reaches.
  const stack = await startOwnStack(profile, 10, 6);
  const exportAbort = new AbortController();
  try {
    const signIn = await page.request.post(`${stack.origin}/api/session`, {
      data: stack.key,
      headers: sameOriginHeaders(stack.origin),
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    const cookie = (await sessionCookieOf(page)).header;
    // The export, read as fast as it comes (as a browser saving the file does), until the test ends.
    const exportResponse = await fetch(`${stack.origin}/api/transactions/export?format=csv`, {
      headers: { Cookie: cookie },
      signal: exportAbort.signal,
    });
    expect(exportResponse.status).toBe(200);
    const reader = exportResponse.body?.getReader();
    void (async () => {
      try {
        for (;;) if ((await reader?.read())?.done !== false) return;
      } catch {
        // aborted at the end of the test
      }
    })();
    await page.goto(`${stack.origin}/stations`);
    await expect(page.getByTestId("catalog-budget-wait")).toContainText(
      "Waiting for the request budget: an export of your transactions is running with the same API key",
      { timeout: 60_000 },
    );
    await expect(page.getByTestId("catalog-budget-wait")).toContainText("allows 10 requests per 6 seconds");
    await expect(map(page)).toHaveAttribute("data-drawn-count", /^\d+$/, { timeout: 120_000 });
    await expect(page.getByTestId("catalog-budget-wait")).toHaveCount(0);
  } finally {
    exportAbort.abort();
    await stack.stop();
  }
});

/** Every transaction of the key's customer, newest first, from the sandbox itself. */
async function sandboxTransactions(
  page: Page,
  profile: Profile,
  key: DemoKey,
  query: Record<string, string> = {},
  maxPages = Number.POSITIVE_INFINITY,
): Promise<SandboxTransaction[]> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const all: SandboxTransaction[] = [];
  for (let p = 1; p <= maxPages; p++) {
    const params = new URLSearchParams({ ...query, page: String(p), limit: "200" });
    const response = await page.request.get(`${base}/transactions?${params.toString()}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: { pages: number; items: SandboxTransaction[] } };
    all.push(...body.data.items);
    if (p >= body.data.pages) break;
  }
  return all;
}

interface SandboxTransaction {
  id: string;
  transaction_at: string;
  status: string;
  product: string;
  gallons: number | string;
  amount: number | string;
  station: { id: string; name: string };
  def: { gallons: number | string; amount: number | string } | null;
}

/** Σ amount ÷ Σ gallons to 3 decimals, half away from zero, in integers (as the page must). */
function averagePrice(rows: readonly { amount: number | string; gallons: number | string }[]): string {
  const cents = rows.reduce((n, r) => n + BigInt(Math.round(Number(r.amount) * 100)), 0n);
  const milli = rows.reduce((n, r) => n + BigInt(Math.round(Number(r.gallons) * 1000)), 0n);
  const thousandths = (2n * cents * 10_000n + milli) / (2n * milli);
  return `$${(Number(thousandths) / 1000).toFixed(3)}`;
}

test("a station's detail: the latest 20 of its purchases, the year on last year's dates, an average price per product", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.setTimeout(90_000);
  const key = demoKeys["demo-full"];
  const all = await sandboxTransactions(page, profile, key);
  const thisYear = new Date().getFullYear();
  const byStation = new Map<string, SandboxTransaction[]>();
  for (const t of all) byStation.set(t.station.id, [...(byStation.get(t.station.id) ?? []), t]);
  // A station with more purchases than the page lists, of two products, whose latest 20 reach into last year.
  const pick = [...byStation.values()].find(
    (rows) =>
      rows.length > 20 &&
      new Set(rows.map((r) => r.product)).size > 1 &&
      new Date(rows[19]?.transaction_at ?? 0).getFullYear() < thisYear,
  );
  if (pick === undefined) throw new Error("no station fits the test in the sandbox's data");
  const station = pick[0]?.station;
  if (station === undefined) throw new Error("no station");
  // The page's own source: the newest 200 transactions that mention the station's name, of this station.
  const items = (await sandboxTransactions(page, profile, key, { search: station.name }, 1)).filter(
    (t) => t.station.id === station.id,
  );
  expect(items.length).toBeGreaterThan(20);

  const response = await page.goto(`/stations/${station.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("station-transactions-count")).toHaveText(
    `The latest 20 of ${String(items.length)} purchases.`,
  );
  const rows = page.getByTestId("station-transaction-row");
  await expect(rows).toHaveCount(20);
  const whenTexts = await rows.locator("td:first-child a").allTextContents();
  items.slice(0, 20).forEach((t, i) => {
    const year = new Date(t.transaction_at).getFullYear();
    expect(
      whenTexts[i]?.includes(String(year)),
      `row ${String(i + 1)} (${t.transaction_at}) reads “${whenTexts[i] ?? ""}”`,
    ).toBe(year !== thisYear);
  });
  const spend = items.filter((t) => t.status !== "failed");
  const expected = new Map<string, { amount: number | string; gallons: number | string }[]>();
  for (const t of spend) {
    expected.set(t.product, [...(expected.get(t.product) ?? []), t]);
    if (t.def !== null && Number(t.def.gallons) > 0) expected.set("def", [...(expected.get("def") ?? []), t.def]);
  }
  const names: Record<string, string> = { diesel: "Diesel", unleaded: "Unleaded", def: "DEF" };
  const averages = page.getByTestId("average-paid-product");
  await expect(averages).toHaveCount(expected.size);
  for (const [product, rowsOf] of expected) {
    await expect(averages.filter({ hasText: `${names[product] ?? product}:` })).toHaveText(
      `${names[product] ?? product}: ${averagePrice(rowsOf)} per gallon over ${String(rowsOf.length)} ${rowsOf.length === 1 ? "purchase" : "purchases"}`,
    );
  }
});

test("an unknown station answers HTTP 404 with the not-found page", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const [known] = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  if (known === undefined) throw new Error("empty catalog");
  for (const id of ["00000000-0000-4000-8000-000000000000", "not a station"]) {
    const response = await page.goto(`/stations/${encodeURIComponent(id)}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    // Inside the dashboard's shell, whose <main> it is in: one main landmark, not one in another.
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Stations" })).toBeVisible();
  }
  const ok = await page.goto(`/stations/${known.id}`);
  expect(ok?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: known.name, level: 1 })).toBeVisible();
});
