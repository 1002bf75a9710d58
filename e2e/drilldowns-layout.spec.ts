// Issue 26: a driver's page does not move as its figures load (Lighthouse measured CLS 0.66 on a phone and 0.33 on a
// desktop: the header changed from the driver's id to their name, and six grey bars gave way to four cards that pushed
// the savings panel down). The page's figures request is held until the loading state has been measured, then let
// through to the real BFF (not a mock: only its timing is set, so the loading state is on screen for certain).
import type { Page, Route } from "@playwright/test";

import { expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";

/** Lighthouse's mobile and desktop screens. */
const SCREENS = [
  { name: "phone", width: 412, height: 823 },
  { name: "desktop", width: 1350, height: 940 },
] as const;
/** Core Web Vitals' "good" CLS. */
const CLS_GOAL = 0.1;

interface Boxes {
  title: number;
  totals: number | null;
  savings: number;
}

/** The tops of what a first screen shows: the page title, the totals card, the savings panel (CSS px from the top). */
async function boxesOf(page: Page): Promise<Boxes> {
  // Null for what is not on the page (not waited for: the loading state may lack it).
  const top = async (selector: ReturnType<Page["locator"]>) =>
    (await selector.count()) === 0 ? null : ((await selector.boundingBox())?.y ?? null);
  const section = (name: RegExp) => page.locator("section").filter({ has: page.getByRole("heading", { name }) });
  return {
    title: (await top(page.getByRole("heading", { level: 1 }))) ?? Number.NaN,
    totals: await top(section(/^Totals, /).first()),
    savings: (await top(section(/^Savings against cheaper stations nearby$/))) ?? Number.NaN,
  };
}

/** Sums the page's layout shifts (those not caused by input), as Lighthouse's CLS does within one window. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) w.__cls += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}

test.describe("a driver's page keeps its layout as its figures load", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 90_000);
  test.beforeEach(async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
  });

  for (const screen of SCREENS)
    test(`on a ${screen.name} (${String(screen.width)} × ${String(screen.height)})`, async ({ loggedInPage: page }) => {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      const drivers = (await (await page.request.get("/api/drivers")).json()) as { rows: { key: string }[] };
      const driverId = drivers.rows[0]?.key ?? "";
      expect(driverId).not.toBe("");
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const detailPath = `/api/drivers/${encodeURIComponent(driverId)}`;
      await page.route(
        (url) => url.pathname === detailPath,
        async (route: Route) => {
          await held;
          await route.continue();
        },
      );
      await watchLayoutShifts(page);
      await page.goto(`/drivers/${driverId}`);
      await expect(page.locator('[aria-busy="true"]').first()).toBeVisible();
      const before = await boxesOf(page);
      release();
      await expect(page.getByTestId("drilldown-detail-totals").locator("dd").first()).toHaveText(/\$/);
      await expectLoaded(page);
      const after = await boxesOf(page);
      // What the first screen showed stays where it was: the title, the totals card, and the savings panel if it
      // was on that screen (below it, it may move: no one saw it).
      expect(after.title).toBe(before.title);
      expect(after.totals).toBe(before.totals);
      if (before.savings < screen.height) expect(after.savings).toBe(before.savings);
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      expect(cls).toBeLessThanOrEqual(CLS_GOAL);
    });
});
