// The drill-downs (issue 16 item 2): /drivers, /trucks, /cards ranked, a driver's detail page and a station's insight
// block. Every figure on screen equals a sum computed here from the sandbox's own database (each purchase on its own
// local date: the primary profile sends the station's offset, the alternative sends UTC); a figure's "View" link
// lists rows whose totals bar shows the same amount; axe in both themes; keyboard; 360 px phones.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";

import { expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";
import { type Profile, serversOf } from "./profiles";

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A fixed month-long range well inside the seeded history (which ends at the sandbox's start). */
const RANGE = { from: day(Date.now() - 75 * DAY_MS), to: day(Date.now() - 45 * DAY_MS) };
const QUERY = `?from=${RANGE.from}&to=${RANGE.to}`;

interface Sums {
  purchases: number;
  cents: number;
}

/** Spend (completed and pending) of the demo customer per key on RANGE's local dates, from the sandbox database. */
function sandboxSums(profile: Profile, key: "d.id" | "d.truck_id" | "c.last4" | "s.id"): Map<string, Sums> {
  const db = new Database(serversOf(profile).db, { readonly: true });
  const offset = profile === "primary" ? "t.tz_offset_min * 60" : "0";
  try {
    const rows = db
      .prepare(
        `SELECT ${key} AS k, count(*) AS n, sum(t.amount_cents) AS cents
         FROM transactions t JOIN drivers d ON d.pk = t.driver_pk JOIN cards c ON c.pk = t.card_pk
           JOIN stations s ON s.pk = t.station_pk JOIN customers cu ON cu.pk = t.customer_pk
         WHERE cu.code = 'PFL' AND t.status <> 'failed'
           AND date(t.at_utc + ${offset}, 'unixepoch') BETWEEN ? AND ?
         GROUP BY ${key}`,
      )
      .all(RANGE.from, RANGE.to) as { k: string | null; n: number; cents: number }[];
    return new Map(rows.filter((r) => r.k !== null).map((r) => [r.k ?? "", { purchases: r.n, cents: r.cents }]));
  } finally {
    db.close();
  }
}

/** "$1,234.50" → 123450 cents */
const centsOf = (text: string | null) => Math.round(Number((text ?? "").replace(/[$,\s]/g, "")) * 100);

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const tableRows = (page: Page) => page.getByTestId("drilldown-table").locator("tbody tr[data-key]");

/** Every ranked row's spend and purchases on screen, by key. */
async function rowsOnScreen(page: Page): Promise<Map<string, Sums>> {
  await expect(tableRows(page).first()).toBeVisible();
  const found = new Map<string, Sums>();
  for (const row of await tableRows(page).all()) {
    const key = (await row.getAttribute("data-key")) ?? "";
    found.set(key, {
      purchases: Number(((await row.locator('[data-column="purchases"]').textContent()) ?? "").replace(/,/g, "")),
      cents: centsOf(await row.locator('[data-column="amount"]').textContent()),
    });
  }
  return found;
}

test.describe("drill-downs with the local copy ready", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 90_000);
  test.beforeEach(async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
  });

  for (const [path, key] of [
    ["/drivers", "d.id"],
    ["/trucks", "d.truck_id"],
    ["/cards", "c.last4"],
  ] as const)
    test(`${path} ranks every key with the sandbox's own sums on local dates`, async ({
      loggedInPage: page,
      profile,
    }) => {
      await page.goto(`${path}${QUERY}`);
      await expectLoaded(page);
      const expected = sandboxSums(profile, key);
      expect(expected.size).toBeGreaterThan(0);
      expect(await rowsOnScreen(page)).toEqual(expected);
      // Largest spend first.
      const amounts = [...(await rowsOnScreen(page)).values()].map((s) => s.cents);
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    });

  test("a driver's page: totals, trend and stations agree with the sandbox, and its View link ties out", async ({
    loggedInPage: page,
    profile,
  }) => {
    const drivers = sandboxSums(profile, "d.id");
    const [driverId, sums] = [...drivers.entries()].sort((a, b) => b[1].cents - a[1].cents)[0] ?? ["", null];
    if (sums === null) throw new Error("no driver bought fuel in the range");
    await page.goto(`/drivers${QUERY}`);
    await expectLoaded(page);
    // Keyboard: the first name link is reachable and opens the driver's page.
    const link = tableRows(page).first().getByRole("link").first();
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/drivers/${driverId}\\?`));
    await expectLoaded(page);
    const totals = page.getByTestId("drilldown-detail-totals");
    await expect(totals.locator("dd").first()).toHaveText(/\$/);
    expect(centsOf(await totals.locator("dd").first().textContent())).toBe(sums.cents);
    // The stations table adds up to the total.
    const stations = page.getByTestId("breakdown-table").locator('tbody tr [data-column="amount"]');
    const stationCents = (await stations.allTextContents()).map(centsOf).reduce((a, b) => a + b, 0);
    expect(stationCents).toBe(sums.cents);
    // Each station row links to the driver's rows there on the covered local dates.
    const firstStation = page.getByTestId("breakdown-table").locator("tbody tr").first();
    const href = await firstStation.getByRole("link", { name: /^View the transactions of / }).getAttribute("href");
    const linked = new URLSearchParams(href?.split("?")[1]);
    expect([linked.get("driver"), linked.get("dates"), linked.get("station") !== null]).toEqual([
      driverId,
      "local",
      true,
    ]);
    // The trend's table: one row per local day of the range.
    const days = (Date.parse(RANGE.to) - Date.parse(RANGE.from)) / DAY_MS + 1;
    await expect(page.locator("[data-day-row]")).toHaveCount(days);
    // Its newest transactions on the page (the overview's table), then all of them in the list, whose totals bar shows
    // the same amount.
    await expect(page.getByRole("table", { name: "Latest transactions" }).locator("tbody tr").first()).toBeVisible();
    await page.getByRole("link", { name: /^View the [\d,]+ purchases/ }).click();
    await expect(page).toHaveURL(/\/transactions\?.*dates=local/);
    await expect(page.getByTestId("totals-amount")).toHaveText(/\$/, { timeout: 30_000 });
    expect(centsOf(await page.getByTestId("totals-amount").textContent())).toBe(sums.cents);
  });

  test("a station's page gains the fleet's figures at it, equal to the sandbox's", async ({
    loggedInPage: page,
    profile,
  }) => {
    const stations = sandboxSums(profile, "s.id");
    const [stationId, sums] = [...stations.entries()].sort((a, b) => b[1].cents - a[1].cents)[0] ?? ["", null];
    if (sums === null) throw new Error("no station sold fuel in the range");
    await page.goto(`/stations/${stationId}${QUERY}`);
    await expect(page.getByRole("heading", { name: "Your fleet at this station" })).toBeVisible();
    const totals = page.getByTestId("drilldown-detail-totals");
    await expect(totals.locator("dd").first()).toHaveText(/\$/, { timeout: 30_000 });
    expect(centsOf(await totals.locator("dd").first().textContent())).toBe(sums.cents);
  });

  for (const scheme of ["light", "dark"] as const)
    test(`the drill-down pages have no serious axe violation and fit a 360 px phone (${scheme} theme)`, async ({
      loggedInPage: page,
      profile,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 360, height: 800 });
      const driverId = [...sandboxSums(profile, "d.id").keys()][0] ?? "";
      for (const path of ["/drivers", "/trucks", "/cards", `/drivers/${driverId}`]) {
        await page.goto(`${path}${QUERY}`);
        await expectLoaded(page);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoSeriousViolations(page);
        // Tables scroll inside their own box; the page itself does not scroll sideways.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    });
});
