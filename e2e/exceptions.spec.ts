// The exceptions page (issue 16 item 3, issue 25 item 4): every rule's count (the seeded cases give each one at least
// one hit; the catalog price rule is off by default and says why), the off-hours count (turned on for e2e,
// playwright.config.ts) equal to the one computed from the sandbox's own rows, the rule filter in the URL by keyboard,
// paging through every hit and grouping them by driver, a hit's transaction link, the thresholds and the catalog
// caveat, axe in both themes and a 360 px phone.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";

import { EXCEPTION_RULE_IDS } from "@/lib/model/insight-exceptions";

import { expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";
import { type Profile, serversOf } from "./profiles";

const BLOCKING_IMPACTS = new Set(["serious", "critical"]);
const DAY_MS = 86_400_000;

const to = new Date().toISOString().slice(0, 10);
const from = new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo customer's fills (not failed) at night (22:00–05:00) or on a weekend, by each purchase's local time — read
 * from the sandbox's own database. The alternative profile sends times in UTC, so there the local time is UTC.
 */
function offHoursFromSandbox(profile: Profile): number {
  const db = new Database(serversOf(profile).db, { readonly: true });
  try {
    const offset = profile === "primary" ? "t.tz_offset_min * 60" : "0";
    const n: unknown = db
      .prepare(
        `SELECT count(*) FROM (
           SELECT t.at_utc + ${offset} AS local FROM transactions t JOIN customers c ON c.pk = t.customer_pk
           WHERE c.code = 'PFL' AND t.status != 'failed')
         WHERE date(local, 'unixepoch') BETWEEN ? AND ?
           AND (CAST(strftime('%H', local, 'unixepoch') AS INTEGER) >= 22
             OR CAST(strftime('%H', local, 'unixepoch') AS INTEGER) < 5
             OR strftime('%w', local, 'unixepoch') IN ('0', '6'))`,
      )
      .pluck()
      .get(from, to);
    if (typeof n !== "number") throw new Error("the sandbox did not count");
    return n;
  } finally {
    db.close();
  }
}

async function openExceptions(page: Page, query = ""): Promise<void> {
  await page.goto(`/exceptions?from=${from}&to=${to}${query}`);
  await expect(page.getByTestId("exception-rules")).toBeVisible({ timeout: 30_000 });
  await expectLoaded(page);
}

test.describe("the exceptions page", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);

  test.beforeEach(async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
  });

  test("counts every rule's hits; off hours equal the sandbox's own count; thresholds and caveat shown", async ({
    loggedInPage: page,
    profile,
  }) => {
    await openExceptions(page);
    await expect(page.getByRole("heading", { level: 1, name: "Exceptions" })).toBeVisible();
    await expect(page.getByText("each purchase's own local time")).toBeVisible();
    // Every rule finds its seeded case (the e2e app turns the night-or-weekend rule on; the price rule is on by
    // default and finds the case an hour before the sandbox's start, against the price observed at the time).
    for (const id of EXCEPTION_RULE_IDS) {
      const count = Number(await page.getByTestId(`count-${id}`).textContent());
      expect(count, id).toBeGreaterThanOrEqual(1);
    }
    await expect(page.getByTestId("count-off-hours")).toHaveText(String(offHoursFromSandbox(profile)));
    // The seeded case among the rule's own hits (every rule's hits are paged, the night-or-weekend ones first here).
    await openExceptions(page, "&rule=rapid-fills");
    await expect(page.getByText(/within 2 h 10 min, 412\.0 gal in total/)).toBeVisible();
    await openExceptions(page, "&rule=above-catalog-price");
    await expect(
      page.getByText(
        /\$0\.450 above its customer price \$\d\.\d{3} observed (at the time|[^:]+ from the purchase): \$53\.10 more\./,
      ),
    ).toBeVisible();
    const thresholds = page.getByTestId("exception-thresholds");
    await expect(thresholds.getByRole("row", { name: /Impossible travel: faster than/ })).toContainText("75 mph");
    // What a person can act on, not the operator's environment variables (issue 26).
    await expect(page.getByRole("main")).not.toContainText("EXCEPTIONS_");
    await expect(page.getByRole("main")).not.toContainText("PRICE_WINDOW_HOURS");
    await expect(page.getByTestId("catalog-note")).toContainText("never with today's price for an older fill");
  });

  test("the rule filter is a labelled select kept in the URL; a hit links to its transaction", async ({
    loggedInPage: page,
  }) => {
    await openExceptions(page);
    const select = page.getByRole("combobox", { name: "Show hits of" });
    await select.focus();
    await select.selectOption("impossible-travel");
    await expect(page).toHaveURL(/rule=impossible-travel/);
    const hits = page.getByTestId("exception-hits").getByRole("listitem");
    // The list of every rule stays on screen until the narrowed one arrives: wait until no other rule's hit is left.
    await expect(page.getByTestId("exception-hits").locator('li:not([data-rule="impossible-travel"])')).toHaveCount(0);
    await expect(hits.first()).toContainText(/mi away within/);
    await page.reload();
    await expect(select).toHaveValue("impossible-travel");
    const link = hits.first().getByRole("link", { name: "Transaction 1" });
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/transactions\/[^/?]+$/);
  });

  test("pages through every hit and groups them by driver with each group's count, kept in the URL", async ({
    loggedInPage: page,
  }) => {
    await openExceptions(page);
    const total = Number(await page.getByTestId("count-off-hours").textContent());
    const status = page.getByText(/^Hits 1–50 of \d+, newest first\.$/);
    await expect(status).toBeVisible();
    const all = Number(/of (\d+),/.exec((await status.textContent()) ?? "")?.[1]);
    expect(all).toBeGreaterThanOrEqual(total);
    const pager = page.getByRole("navigation", { name: "Pages of hits" });
    await expect(pager).toContainText(`Page 1 of ${String(Math.ceil(all / 50))}`);
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(new RegExp(`^Hits 51–\\d+ of ${String(all)}, newest first\\.$`))).toBeVisible();
    // Another period starts again at page 1 (the old page could be past its last), keeping the other choices.
    await page.getByRole("combobox", { name: "Period" }).selectOption("default");
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByText(/^Hits 1–50 of \d+, newest first\.$/)).toBeVisible();
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2/);
    await page.getByRole("combobox", { name: "Group hits by" }).selectOption("driver");
    await expect(page).toHaveURL(/group=driver/);
    await expect(page).not.toHaveURL(/page=2/);
    const groups = page.getByTestId("exception-groups");
    await expect(groups).toBeVisible();
    const counts = await groups.locator("tbody td").allTextContents();
    expect(counts.reduce((n, c) => n + Number(c.replace(/,/g, "")), 0)).toBe(all);
    await expect(page.getByTestId("exception-hits").getByRole("heading", { level: 3 }).first()).toContainText(
      /· \d+ hits?$/,
    );
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`has no serious or critical axe violation (${scheme} theme)`, async ({ loggedInPage: page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openExceptions(page);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      const blocking = results.violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
      expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }

  test("fits a 360 px phone: the page does not scroll sideways (the hits are cards)", async ({
    loggedInPage: page,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await openExceptions(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("a link's values the pages cannot use (issue 26)", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);

  test("are said above the period, with what is shown instead, and go once a period is picked", async ({
    loggedInPage: page,
  }) => {
    await waitForMirrorReady(page);
    await page.goto("/exceptions?rule=evil&from=2026-05-31&to=2026-05-01");
    const note = page.getByTestId("link-problems");
    await expect(note).toHaveAttribute("role", "status");
    await expect(note).toContainText("“evil” is not one of this page's rules; showing the hits of every rule.");
    await expect(note).toContainText(
      "The start date 2026-05-31 was after the end date 2026-05-01; showing 2026-05-01 to 2026-05-31.",
    );
    await page.goto("/reports/jurisdictions?quarter=2026-Q9");
    await expect(note).toContainText("“2026-Q9” is not a quarter (written like 2026-Q3); showing the last 30 days.");
    // A choice made on the page is the page's own: nothing to say about it.
    await page.getByRole("combobox", { name: "Period" }).selectOption({ index: 1 });
    await expect(page).toHaveURL((url) => url.searchParams.get("quarter") !== "2026-Q9");
    await expect(note).toHaveCount(0);
  });
});
