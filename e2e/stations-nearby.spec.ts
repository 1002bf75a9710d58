// The stations journey, near a point: "cheapest near here" equals a ranking computed from the sandbox's own data,
// 'Use my location', the keyboard path through the ranked list, the selected station in the URL, the radius ring,
// the ranking beside the map, the popup's brand and the page's height.
import { expect, test } from "./fixtures";
import { expectedRanking, sandboxCatalog } from "./sandbox-stations";
import { AMARILLO, expectRanked, findNear, map, openStationPopup, openStations } from "./stations-page";

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
    await openStationPopup(page, station);
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
