// The stations journey, the map: it draws the sandbox's whole catalog, filters change the count, a station's popup
// leads to its detail, tiles from the tile server (and the fallback when it fails), a key without the locations
// scope, a failed refresh keeping the last catalog, and Leaflet staying off the other pages. Expected values come
// from the sandbox's API directly (not through the BFF under test). The other stations-*.spec.ts files: nearby
// rankings, product prices, places and zoom, the station detail.
import { execFileSync } from "node:child_process";

import { expect, expectLoaded, signInThroughApi, test } from "./fixtures";
import { serversOf, TILE_ATTRIBUTION, tileServerOrigin } from "./profiles";
import { SANDBOX_PAGE, sandboxCatalog, sandboxLocations } from "./sandbox-stations";
import { map, openStationPopup, openStations, setTiles, tileStats } from "./stations-page";

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
  await openStationPopup(page, station);
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
