// The stations journey: the map draws the sandbox's whole catalog, filters change the count, a station's popup and
// detail, "cheapest near here" equals a ranking computed from the sandbox's own data, the keyboard path through the
// ranked list, a key without the locations scope, a failed refresh keeping the last catalog, and Leaflet staying off
// the other pages. Expected values come from the sandbox's API directly (not through the BFF under test).
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { expect, expectLoaded, signInThroughApi, test, type DemoKey } from "./fixtures";
import { serversOf, TILE_ATTRIBUTION, tileServerOrigin, type Profile } from "./profiles";

interface SandboxStation {
  id: string;
  loc_num: string;
  name: string;
  brand: string;
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
async function sandboxLocations(page: Page, profile: Profile, key: DemoKey, query: Record<string, string> = {}, pageNumber = 1): Promise<SandboxPage> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const params = new URLSearchParams({ ...query, page: String(pageNumber), limit: String(SANDBOX_PAGE) });
  const response = await page.request.get(`${base}/locations?${params.toString()}`, { headers: { Authorization: `Bearer ${token}` } });
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

const map = (page: Page) => page.getByTestId("station-map");

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
  await expect(page.getByTestId("station-count")).toHaveText(`Showing ${total.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} stations`);
  // The legend prints 7 classes for the whole catalog, and the draw was measured.
  await expect(page.getByTestId("legend-class")).toHaveCount(7);
  const measures = await page.evaluate(() => performance.getEntriesByName("ffd:map-draw").length);
  expect(measures).toBeGreaterThan(0);
  // The catalog walk reported its pages.
  const progress = (await (await page.request.get("/api/locations/progress")).json()) as { state: string; pages: number; pagesDone: number; loaded: number };
  expect(progress).toMatchObject({ state: "done", pages: Math.ceil(total / SANDBOX_PAGE), pagesDone: Math.ceil(total / SANDBOX_PAGE), loaded: total });
});

test("brand and state filters change the drawn count to the sandbox's own filtered totals, and live in the URL", async ({ loggedInPage: page, profile, demoKeys }) => {
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

test("clicking a station opens its popup, and the popup leads to its detail", async ({ loggedInPage: page, profile, demoKeys }) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const station = catalog.find((s) => s.price !== null && s.brand === "pilot") ?? catalog[0];
  if (station === undefined) throw new Error("empty catalog");
  // Searching its loc number leaves this station alone on the map, so the click cannot hit a neighbour.
  await openStations(page, `?search=${station.loc_num}`);
  await expect(map(page)).toHaveAttribute("data-drawn-count", "1");
  const position = await page.evaluate((id) => (window as Window & { __ffdStationMap?: { positionOf: (id: string) => { x: number; y: number } | null } }).__ffdStationMap?.positionOf(id) ?? null, station.id);
  expect(position).not.toBeNull();
  if (position === null) return;
  await map(page).locator(".leaflet-container").click({ position });
  const popup = page.getByTestId("station-popup");
  await expect(popup).toContainText(station.name);
  await expect(popup).toContainText(`$${Number(station.price).toFixed(3)}`);
  await popup.getByRole("link", { name: "Station details" }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/stations/${station.id}`);
  await expect(page.getByRole("heading", { name: station.name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("detail-price")).toContainText(`$${Number(station.price).toFixed(3)}`);
  await expect(page.getByRole("heading", { name: "Your fleet's recent fuel here" })).toBeVisible();
  await expectLoaded(page);
});

interface Ranked {
  s: SandboxStation;
  price: number;
  miles: number;
}

/** The page's ranking, computed independently: priced stations within the radius, cheapest first, then nearest. */
function expectedRanking(catalog: readonly SandboxStation[], origin: { lat: number; lng: number }, radius: number, count: number): Ranked[] {
  return catalog
    .filter((s) => s.price !== null)
    .map((s) => ({ s, price: Number(s.price), miles: haversineMiles(origin, s) }))
    .filter((x) => x.miles <= radius)
    .sort((a, b) => a.price - b.price || a.miles - b.miles || a.s.loc_num.localeCompare(b.s.loc_num))
    .slice(0, count);
}

async function expectRankedList(page: Page, expected: readonly Ranked[]): Promise<void> {
  const rows = page.getByTestId("ranked-row");
  await expect(rows).toHaveCount(expected.length);
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-station-id")))).toEqual(expected.map((x) => x.s.id));
  expect(await page.getByTestId("ranked-price").allTextContents()).toEqual(expected.map((x) => `$${x.price.toFixed(3)}`));
  expect(await page.getByTestId("ranked-distance").allTextContents()).toEqual(expected.map((x) => `${x.miles.toFixed(1)} mi`));
}

const AMARILLO = { lat: 35.222, lng: -101.8313 };

test("cheapest near a point equals the ranking computed from the sandbox's data", async ({ loggedInPage: page, profile, demoKeys }) => {
  const catalog = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  const origin = AMARILLO;
  const radius = 100;
  const expected = expectedRanking(catalog, origin, radius, 10);
  expect(expected.length).toBeGreaterThan(2);

  await openStations(page);
  await page.getByLabel("Near", { exact: true }).fill(`${String(origin.lat)}, ${String(origin.lng)}`);
  await page.getByRole("combobox", { name: "Within" }).selectOption(String(radius));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("near") === "35.2220,-101.8313" && url.searchParams.get("radius") === "100");
  await expectRankedList(page, expected);
  await expect(page.getByTestId("ranked-row").first()).toContainText("below area average");
});

test("'Use my location' (permission granted) ranks the cheapest stations around the browser's position", async ({ loggedInPage: page, profile, demoKeys, appOrigin }) => {
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
  await expectRankedList(page, expected);
});

test("'Use my location' with the permission refused says so and keeps the typed-place path", async ({ loggedInPage: page }) => {
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
  const response = await page.request.put(`${tileServerOrigin()}/${profile}/mode`, { data: mode, headers: { "Content-Type": "text/plain" } });
  expect(response.status()).toBe(204);
}

async function tileStats(page: Page, profile: Profile): Promise<{ served: number; refused: number }> {
  return (await (await page.request.get(`${tileServerOrigin()}/${profile}/stats`)).json()) as { served: number; refused: number };
}

test("tiles from the configured tile server (TILE_URL) show under the stations, with their attribution", async ({ loggedInPage: page, profile }) => {
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

test("when the tile server fails, the map falls back to its own basemap and says so", async ({ loggedInPage: page, profile, demoKeys }) => {
  const { total } = await sandboxLocations(page, profile, demoKeys["demo-full"]);
  await setTiles(page, profile, "fail");
  try {
    await openStations(page);
    await expect(page.getByRole("status").filter({ hasText: "The map tile server could not be reached; the map shows its built-in basemap." })).toBeVisible();
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

test("keyboard only: Tab to the ranked list, select a station (popup on the map), open its detail", async ({ loggedInPage: page }) => {
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
  const stdout = execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts", "keys", "create", "--customer", "PFL", "--scopes", "account,transactions", "--label", "e2e-no-locations", "--json", "--db", serversOf(profile).db], { encoding: "utf8", timeout: 60_000 });
  const created = JSON.parse(stdout) as { key_id: string; secret: string };
  await signInThroughApi(page.request, appOrigin, { keyId: created.key_id, secret: created.secret });
  await page.goto("/stations");
  await expect(page.getByText("The map needs the locations scope on your API key.", { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("alert").filter({ hasText: /scope/i })).toBeVisible();
});

test("a failed refresh keeps the last catalog on screen with its age", async ({ loggedInPage: page }) => {
  await openStations(page);
  const drawn = await map(page).getAttribute("data-drawn-count");
  // A BFF failure on cue: mocked in the browser because the real BFF would answer from its 5-minute cache.
  await page.route((url) => url.pathname === "/api/locations" && url.searchParams.get("all") === "1", (route) => route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ error: { code: "upstream_unavailable", message: "The Fleet Fuel API is not answering." } }) }));
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

test("the selected station lives in the URL: a shared link opens on its popup and highlighted row", async ({ loggedInPage: page }) => {
  await openStations(page, "?near=35.2220,-101.8313&radius=100");
  const row = page.getByTestId("ranked-row").nth(1);
  const id = (await row.getAttribute("data-station-id")) ?? "";
  const name = (await row.getByRole("button").textContent())?.trim() ?? "";
  await row.getByRole("button", { name }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("station") === id && url.searchParams.get("radius") === "100");
  const shared = page.url();
  await page.goto("/");
  await page.goto(shared);
  await expect(page.getByTestId("station-popup")).toContainText(name, { timeout: 30_000 });
  await expect(page.getByTestId("ranked-row").nth(1).getByRole("button", { name })).toHaveAttribute("aria-pressed", "true");
  // Closing the popup clears the selection from the URL.
  await map(page).locator(".leaflet-popup-close-button").click();
  await expect(page).toHaveURL((url) => url.searchParams.get("station") === null && url.searchParams.get("near") === "35.2220,-101.8313");
});

test("the radius ring is drawn in the theme's ink (visible on the dark basemap too)", async ({ loggedInPage: page }) => {
  for (const [scheme, ink] of [["light", "#0f172a"], ["dark", "#f1f5f9"]] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openStations(page, "?near=35.2220,-101.8313&radius=100");
    await expect(map(page).locator("path.ffd-radius-ring")).toHaveAttribute("stroke", ink);
  }
});
