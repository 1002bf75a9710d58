// The stations page as the e2e specs drive it (e2e/stations*.spec.ts): opening it, asking near a point, reading the
// ranked list, and the e2e tile server's switch.
import type { Page } from "@playwright/test";

import { expect, expectLoaded } from "./fixtures";
import { type Profile, tileServerOrigin } from "./profiles";
import type { Ranked } from "./sandbox-stations";

export const map = (page: Page) => page.getByTestId("station-map");
export const CHICAGO = { lat: 41.8781, lng: -87.6298 };
export const AMARILLO = { lat: 35.222, lng: -101.8313 };
/** Stations checked per step of the product filter. */
export const PRICE_CHECK_STEP = 25;

export async function findNear(page: Page, origin: { lat: number; lng: number }, radius: number): Promise<void> {
  await page.getByLabel("Near", { exact: true }).fill(`${String(origin.lat)}, ${String(origin.lng)}`);
  await page.getByRole("combobox", { name: "Within" }).selectOption(String(radius));
  await page.getByRole("button", { name: "Find" }).click();
}

export async function expectRanked(page: Page, expected: readonly Ranked[]): Promise<void> {
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

/** `mapTimeoutMs`: how long the first map may take (a brand-new key walks the catalog while its history downloads). */
export async function openStations(page: Page, query = "", mapTimeoutMs = 30_000): Promise<void> {
  await page.goto(`/stations${query}`);
  await expect(page.getByRole("heading", { name: "Stations", level: 1 })).toBeVisible();
  await expect(map(page)).toHaveAttribute("data-drawn-count", /^\d+$/, { timeout: mapTimeoutMs });
  await expectLoaded(page);
}

/** Switch the e2e tile server's answers for this profile ("fail": every tile a 503). */
export async function setTiles(page: Page, profile: Profile, mode: "ok" | "fail"): Promise<void> {
  const response = await page.request.put(`${tileServerOrigin()}/${profile}/mode`, {
    data: mode,
    headers: { "Content-Type": "text/plain" },
  });
  expect(response.status()).toBe(204);
}

export async function tileStats(page: Page, profile: Profile): Promise<{ served: number; refused: number }> {
  return (await (await page.request.get(`${tileServerOrigin()}/${profile}/stats`)).json()) as {
    served: number;
    refused: number;
  };
}

/**
 * Opens the popup of one station: searching its loc number leaves it alone on the map (so the click cannot hit a
 * neighbour), then a click where the map draws it.
 */
export async function openStationPopup(page: Page, station: { id: string; loc_num: string }): Promise<void> {
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
}
