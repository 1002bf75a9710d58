// The savings panel on the overview (issue 16 item 4, issue 25 item 3): "Could have saved $X on N fills" equals a
// brute-force comparison of the sandbox's own completed diesel fills with its own catalog (the cheapest price within
// 10 miles of each fill's station, the station itself left out, observed within 24 h of the fill: a price holds from
// its price_updated_at until the walk), the card says over how many of the period's fills, the cheaper stations link
// to their pages, the figures link to exactly their transactions; axe in both themes, a keyboard path, a 360 px phone.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { type DemoKey, expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";
import { type Profile, serversOf } from "./profiles";
import { haversineMiles, sandboxCatalog, sandboxToken } from "./sandbox-stations";

const RADIUS_MILES = 10;
const WINDOW_MS = 24 * 3_600_000;
const PANEL = "Savings against cheaper stations nearby";

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const count = new Intl.NumberFormat("en-US");

interface SavingsBody {
  range: { from: string; to: string };
  current: { considered: number; fills: number; couldHaveSaved: string; fillsWithSaving: number };
  top: { cheaper: { id: string } }[];
}

interface SandboxFill {
  transaction_at: string;
  status: string;
  product: string;
  gallons: number | string;
  price_per_gallon: number | string;
  station: { id: string };
}

/** Thousandths from the sandbox's number (primary) or decimal string (alternative). */
const milli = (value: number | string) => Math.round(Number(value) * 1000);

/** The sandbox's own completed transactions whose purchase-local date (the date part of its time) is in the range. */
async function sandboxFills(page: Page, profile: Profile, key: DemoKey, range: SavingsBody["range"]) {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const day = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const fills: SandboxFill[] = [];
  for (let p = 1; ; p++) {
    // The alternative shape takes date-times only.
    const bound = (date: string) => (profile === "primary" ? date : `${date}T00:00:00Z`);
    const query = new URLSearchParams({
      from: bound(day(range.from, -1)),
      to: bound(day(range.to, 1)),
      status: "completed",
      page: String(p),
      limit: "200",
    });
    const response = await page.request.get(`${base}/transactions?${query.toString()}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    const { data } = (await response.json()) as { data: { pages: number; items: SandboxFill[] } };
    fills.push(...data.items);
    if (p >= data.pages) break;
  }
  // An ISO time with its offset starts with its local date; the alternative shape's UTC times, with the UTC date.
  return fills.filter((t) => t.transaction_at.slice(0, 10) >= range.from && t.transaction_at.slice(0, 10) <= range.to);
}

/**
 * Σ max(0, paid − cheapest other station within 10 miles whose price was observed within 24 h of the fill) × gallons
 * over the diesel fills, rounded half up to cents; `fills` counts the fills compared, `considered` every completed one.
 */
async function expectedSavings(page: Page, profile: Profile, key: DemoKey, range: SavingsBody["range"]) {
  const catalog = await sandboxCatalog(page, profile, key);
  const byId = new Map(catalog.map((s) => [s.id, s]));
  let micro = 0n;
  let fills = 0;
  let considered = 0;
  let withSaving = 0;
  for (const t of await sandboxFills(page, profile, key, range)) {
    considered++;
    if (t.product !== "diesel") continue;
    const here = byId.get(t.station.id);
    if (!here) continue;
    const at = Date.parse(t.transaction_at);
    const prices = catalog
      .filter(
        (s) =>
          s.id !== here.id &&
          s.price !== null &&
          haversineMiles(here, s) <= RADIUS_MILES &&
          at >= Date.parse(s.price_updated_at) - WINDOW_MS,
      )
      .map((s) => milli(s.price ?? 0));
    if (prices.length === 0) continue;
    fills++;
    const cheapest = Math.min(...prices);
    const paid = milli(t.price_per_gallon);
    if (paid > cheapest) {
      micro += BigInt(paid - cheapest) * BigInt(milli(t.gallons));
      withSaving++;
    }
  }
  const cents = (micro + 5_000n) / 10_000n;
  return {
    fills,
    considered,
    withSaving,
    dollars: `${String(cents / 100n)}.${String(cents % 100n).padStart(2, "0")}`,
  };
}

async function openOverviewWithSavings(page: Page): Promise<SavingsBody> {
  await waitForMirrorReady(page);
  await page.goto("/");
  const panel = page.getByRole("region", { name: PANEL });
  await expect(panel.getByTestId("savings-headline")).toBeVisible({ timeout: 60_000 });
  await expectLoaded(page);
  const response = await page.request.get("/api/savings");
  expect(response.status()).toBe(200);
  return (await response.json()) as SavingsBody;
}

async function expectNoBlockingAxe(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="savings-panel"]')
    .withTags(["wcag2a", "wcag2aa"])
    .analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = blocking
    .map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`)
    .join("\n");
  expect(blocking, `axe found serious or critical violations:\n${report}`).toEqual([]);
}

test.describe("the savings panel", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 90_000);

  test("says what could have been saved, equal to the sandbox's own fills against its own catalog", async ({
    loggedInPage: page,
    profile,
    demoKeys,
  }) => {
    const reply = await openOverviewWithSavings(page);
    const expected = await expectedSavings(page, profile, demoKeys["demo-full"], reply.range);
    expect(expected.fills).toBeGreaterThan(0);
    expect(reply.current.fills).toBe(expected.fills);
    expect(reply.current.considered).toBe(expected.considered);
    const panel = page.getByRole("region", { name: PANEL });
    await expect(panel.getByTestId("savings-basis")).toContainText(
      `computed over ${count.format(expected.fills)} of ${count.format(expected.considered)} completed fills`,
    );
    await expect(panel.getByText(/^Customer price applied\?/)).toBeVisible();
    const headline = panel.getByTestId("savings-headline");
    await expect(headline).toHaveText(
      `Could have saved ${money.format(Number(expected.dollars))} on ${count.format(expected.withSaving)} ${expected.withSaving === 1 ? "fill" : "fills"}`,
    );
    // The largest missed savings name the cheaper station, linked to its page.
    const top = page.getByRole("table", { name: "Largest missed savings" });
    const first = reply.top[0];
    if (first === undefined) throw new Error("expected at least one missed saving in the sandbox's last 30 days");
    await expect(top.locator(`a[href="/stations/${first.cheaper.id}"]`).first()).toBeVisible();
  });

  test("a keyboard reaches the link to the transactions behind the figures, which lists exactly them", async ({
    loggedInPage: page,
  }) => {
    const reply = await openOverviewWithSavings(page);
    const link = page.getByRole("link", { name: /completed transactions behind these figures/ });
    const href = (await link.getAttribute("href")) ?? "";
    const query = new URL(href, "http://x").searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      from: reply.range.from,
      to: reply.range.to,
      dates: "local",
      status: "completed",
    });
    await page.locator("body").focus();
    let reached = false;
    for (let i = 0; i < 200 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await link.evaluate((el) => el === document.activeElement);
    }
    expect(reached, "Tab never reached the link").toBe(true);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/transactions\?.*dates=local/);
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`has no serious or critical axe violation (${scheme} theme)`, async ({ loggedInPage: page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openOverviewWithSavings(page);
      await expectNoBlockingAxe(page);
    });
  }

  test("fits a 360 px phone: nothing wider than the screen but the table's own scroll box", async ({
    loggedInPage: page,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await openOverviewWithSavings(page);
    const panel = page.getByRole("region", { name: PANEL });
    const box = await panel.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(360);
    // The panel's parts that reach past the screen's edge (none), outside scroll boxes of their own.
    const overflowing = await panel.evaluate((root) =>
      [...root.querySelectorAll("*")]
        .filter(
          (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && el.closest(".overflow-x-auto") === null,
        )
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 120)),
    );
    expect(overflowing).toEqual([]);
    const headline = panel.getByTestId("savings-headline");
    await headline.scrollIntoViewIfNeeded();
    await expect(headline).toBeInViewport();
  });
});
