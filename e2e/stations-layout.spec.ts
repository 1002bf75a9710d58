// The stations page's layout (issue 26 item 2): at 1280×800 the map and "Cheapest near here" share the first screen
// side by side and neither column is mostly blank; on a 390 px phone they stack as map, legend, panel; the map's popup
// link has the house link colour (components/ui/text-link.ts) in both themes, with AA contrast on the popup.
import type { Locator, Page } from "@playwright/test";

import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";

import { expect, test } from "./fixtures";
import { sandboxLocations } from "./sandbox-stations";
import { map, openStationPopup, openStations } from "./stations-page";

const FOLD = 800;
/** The shorter column at least this share of the taller: what is left blank under it is at most a quarter. */
const MIN_COLUMN_RATIO = 0.75;
/** WCAG AA for text. */
const AA_TEXT = 4.5;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error("not rendered");
  return box;
}

const panel = (page: Page) => page.getByRole("region", { name: "Cheapest near here" });

test("at 1280×800 the map and the nearby panel share the first screen, side by side, no column mostly blank", async ({
  loggedInPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: FOLD });
  await openStations(page);
  const mapBox = await boxOf(map(page));
  const panelBox = await boxOf(panel(page));
  // The page is at its top: the boxes' y are page coordinates.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(mapBox.y, "the map starts above the fold").toBeLessThan(FOLD);
  expect(panelBox.y, "the panel starts above the fold").toBeLessThan(FOLD);
  // Side by side: the panel right of the map, their heights overlapping.
  expect(panelBox.x).toBeGreaterThanOrEqual(mapBox.x + mapBox.width);
  expect(panelBox.y).toBeLessThan(mapBox.y + mapBox.height);
  // The two grid columns (the map's and the panel's) end close together: no big blank under either.
  const left = await boxOf(map(page).locator("xpath=.."));
  const right = await boxOf(panel(page).locator("xpath=.."));
  const ratio = Math.min(left.height, right.height) / Math.max(left.height, right.height);
  test.info().annotations.push({
    type: "columns",
    description: `map column ${String(left.height)} px, panel column ${String(right.height)} px, page ${String(await page.evaluate(() => document.documentElement.scrollHeight))} px`,
  });
  expect(ratio, `columns of ${String(left.height)} and ${String(right.height)} px`).toBeGreaterThanOrEqual(
    MIN_COLUMN_RATIO,
  );
});

test("on a 390 px phone the page reads map, legend, then the nearby panel", async ({ loggedInPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openStations(page);
  const mapBox = await boxOf(map(page));
  const legendBox = await boxOf(page.getByRole("region", { name: "Price legend" }));
  const panelBox = await boxOf(panel(page));
  expect(legendBox.y).toBeGreaterThanOrEqual(mapBox.y + mapBox.height);
  expect(panelBox.y).toBeGreaterThanOrEqual(legendBox.y + legendBox.height);
  for (const box of [mapBox, legendBox, panelBox]) expect(box.x + box.width).toBeLessThanOrEqual(390);
});

/** A color() or rgb() value as 0–255 channels. */
function channels(css: string): [number, number, number] {
  const numbers = (css.match(/[\d.]+/g) ?? []).map(Number);
  const [r = 0, g = 0, b = 0] = numbers;
  return [r, g, b];
}

function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = channels(css).map((v) => {
      const c = v / 255;
      return c <= 0.039_28 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour a link of the house (TEXT_LINK_CLASSES) has on this page, in the page's current theme. */
async function houseLinkColour(page: Page): Promise<string> {
  return page.evaluate((classes) => {
    const probe = document.createElement("a");
    probe.className = classes;
    probe.href = "#";
    probe.textContent = "probe";
    document.querySelector("main")?.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, TEXT_LINK_CLASSES);
}

for (const scheme of ["light", "dark"] as const) {
  test(`the popup's link has the house link colour, with AA contrast (${scheme})`, async ({
    loggedInPage: page,
    profile,
    demoKeys,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const { items } = await sandboxLocations(page, profile, demoKeys["demo-full"]);
    const station = items.find((s) => s.price !== null) ?? items[0];
    if (station === undefined) throw new Error("empty catalog");
    await openStationPopup(page, station);
    const link = page.getByTestId("station-popup").getByRole("link", { name: "Station details" });
    await expect(link).toBeVisible();
    const { colour, background } = await link.evaluate((element) => ({
      colour: getComputedStyle(element).color,
      background: getComputedStyle(element.closest(".leaflet-popup-content-wrapper") ?? document.body).backgroundColor,
    }));
    expect(colour).toBe(await houseLinkColour(page));
    expect(contrast(colour, background)).toBeGreaterThanOrEqual(AA_TEXT);
  });
}
