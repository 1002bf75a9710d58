// The stations journey, places and the map's view (issue 13): a place name several states have, a state zooming the
// map, and the colour scale of the stations in view.
import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { expectedRanking, haversineMiles, sandboxCatalog, type SandboxStation } from "./sandbox-stations";
import { expectRanked, map, openStations } from "./stations-page";

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
    // Focus goes back to where it was when the choices appeared (issue 26: it dropped to <body>).
    await expect(page.getByRole("button", { name: "Find" })).toBeFocused();
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
