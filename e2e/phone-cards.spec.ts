// Tables become cards on a phone (issue 26, "Phones (390 px)"): at 390 × 844 the transactions, the route planner's
// ranking and the exceptions' rules show each row as a card with the figures a person needs first, labelled, and the
// page does not scroll sideways; a transaction opens from its card by keyboard. At the default 1280 px the other
// specs keep reading these tables as tables (rows, column headers, test ids).
import type { Locator, Page } from "@playwright/test";

import { expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";
import { routeQuery } from "./route-planner-page";
import { openStations } from "./stations-page";
import { openList, rows } from "./transactions-page";

test.use({ viewport: { width: 390, height: 844 } });

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    viewport: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
}

/** The figure a card shows under `label` (its definition list's pair), which must be on screen. */
function pair(card: Locator, label: string): Locator {
  return card.locator("div", { has: card.page().locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd");
}

/** Not cut at the right edge: the whole box is within the viewport's width. */
async function expectWithinWidth(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = await locator.page().evaluate(() => window.innerWidth);
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width);
}

async function expectLabelled(card: Locator, labels: readonly string[]): Promise<void> {
  for (const label of labels) {
    await expect(card.locator("dt", { hasText: new RegExp(`^${label}$`) })).toBeVisible();
    await expect(pair(card, label)).toBeVisible();
    await expect(pair(card, label)).not.toHaveText("");
  }
}

test("transactions: each row is a card with when, where, driver, amount and status; no sideways scroll", async ({
  loggedInPage: page,
}) => {
  await openList(page);
  const card = rows(page).first();
  await expect(card).toHaveJSProperty("tagName", "LI");
  await expect(page.locator('[data-layout="cards"]')).toBeVisible();
  await expect(page.getByRole("table", { name: /^Transactions/ })).toHaveCount(0);
  // When: the card's title (its date-time), then the primary figures under their labels.
  await expect(card.locator("time")).toBeVisible();
  await expectLabelled(card, ["Status", "Amount", "Station", "Driver"]);
  await expect(pair(card, "Amount")).toHaveText(/^\$[\d,]+\.\d\d$/);
  // The figures left for the detail page are not on the card.
  await expect(card.locator("dt", { hasText: /^Price\/gal$/ })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
});

test("transactions: Tab goes from a card through its links to the next card, and Enter opens that card's transaction", async ({
  loggedInPage: page,
}) => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);
  // The list's rows come from the local copy once it is ready (and it then offers sorting): wait for that, so the
  // list does not change source between the Tab and the Enter.
  await waitForMirrorReady(page);
  await openList(page);
  await rows(page).first().focus();
  const second = rows(page).nth(1);
  const amount = (await pair(second, "Amount").textContent())?.trim() ?? "";
  let reached = false;
  // The first card's own links (station, driver, truck) come before the next card, in the card's reading order.
  for (let tab = 0; tab < 8 && !reached; tab += 1) {
    await page.keyboard.press("Tab");
    reached = await second.evaluate((el) => el === document.activeElement);
  }
  expect(reached, "Tab reaches the second card after the first card's links").toBe(true);
  await expect(second).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/transactions/"));
  await expect(page.getByTestId("detail-amount")).toHaveText(amount);
});

test("route planner: each ranked station is a card with its effective price and verdict; no sideways scroll", async ({
  loggedInPage: page,
}) => {
  await openStations(page, routeQuery());
  await expect(page.getByTestId("route-plan")).toBeVisible({ timeout: 30_000 });
  const ranked = page.getByTestId("route-ranked");
  await expect(ranked).toHaveAttribute("data-layout", "cards");
  // The caption is all there, above the cards.
  await expect(ranked.getByText(/^Corridor stations by effective .* at its stops\)$/)).toBeVisible();
  const card = page.getByTestId("route-row").first();
  await expect(card.getByRole("button", { pressed: false })).toBeVisible();
  await expectLabelled(card, ["Effective", "Verdict"]);
  await expectWithinWidth(card.getByTestId("route-verdict"));
  // Selecting the station from its card still works (aria-pressed).
  await card.getByRole("button").first().click();
  await expect(card.getByRole("button").first()).toHaveAttribute("aria-pressed", "true");
  await expectNoSidewaysScroll(page);
});

test.describe("exceptions", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);

  test("each rule is a card with its hits and change; no sideways scroll", async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/exceptions?from=${from}&to=${to}`);
    const rules = page.getByTestId("exception-rules");
    await expect(rules).toBeVisible({ timeout: 30_000 });
    await expectLoaded(page);
    await expect(rules).toHaveAttribute("data-layout", "cards");
    const cards = rules.locator("li");
    expect(await cards.count()).toBeGreaterThan(1);
    for (const card of await cards.all()) await expectLabelled(card, ["Hits", "Change"]);
    await expectWithinWidth(pair(cards.first(), "Change"));
    await expectNoSidewaysScroll(page);
  });
});
