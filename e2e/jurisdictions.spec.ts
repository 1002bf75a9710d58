// Fuel by jurisdiction (issue 16 item 1): the page's figures equal sums computed from the sandbox's own database
// (completed purchases of the demo customer on their local dates, per station state × fuel), its links list exactly
// the rows behind a figure (the list's totals tie out), the CSV export equals the page, axe finds nothing serious in
// either theme, the page works by keyboard and on a 360 px phone.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";

import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import { fromMinorUnits } from "@/lib/model/decimal-math";
import { classifyProduct } from "@/lib/model/product-classes";

import { DEMO_CUSTOMER_NAME, expect, expectLoaded, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";
import { type Profile, serversOf } from "./profiles";

const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

interface Expected {
  purchases: number;
  gallonsMilli: bigint;
  amountCents: bigint;
}

/**
 * The last whole quarter before the newest purchase, the expected sums per "STATE-fuel" from the sandbox's DB, and
 * the "STATE-fuel" bought only in the quarter before (the report lists them too, with zeros now).
 */
function sandboxQuarter(profile: Profile): {
  quarter: string;
  from: string;
  to: string;
  rows: Map<string, Expected>;
  goneSince: Set<string>;
} {
  const db = new Database(serversOf(profile).db, { readonly: true });
  try {
    const customer = db.prepare("select pk from customers where code = 'PFL'").get() as { pk: number };
    const newest = db.prepare("select max(at_utc) as at from transactions where customer_pk = ?").get(customer.pk) as {
      at: number;
    };
    const d = new Date(newest.at * 1000);
    const q = Math.floor(d.getUTCMonth() / 3); // this quarter, 0-based; the last whole one is before it
    const year = q === 0 ? d.getUTCFullYear() - 1 : d.getUTCFullYear();
    const last = q === 0 ? 3 : q - 1;
    const from = new Date(Date.UTC(year, last * 3, 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(year, last * 3 + 3, 0)).toISOString().slice(0, 10);
    const rows = new Map<string, Expected>();
    const before = new Set<string>();
    const previousFrom = new Date(Date.UTC(year, last * 3 - 3, 1)).toISOString().slice(0, 10);
    const all = db
      .prepare(
        `select s.state as state, t.product as product, t.gallons_milli as g, t.amount_cents as a,
           date(t.at_utc + t.tz_offset_min * 60 * ?, 'unixepoch') as day
         from transactions t join stations s on s.pk = t.station_pk
         where t.customer_pk = ? and t.status = 'completed'`,
      )
      // The alternative shape reports times in UTC (no offset): its purchases count on their UTC date.
      .all(profile === "primary" ? 1 : 0, customer.pk) as {
      state: string;
      product: string;
      g: number;
      a: number;
      day: string;
    }[];
    for (const r of all) {
      const key = `${r.state}-${classifyProduct(r.product).productClass}`;
      if (r.day >= previousFrom && r.day < from) before.add(key);
      if (r.day < from || r.day > to) continue;
      const e = rows.get(key) ?? { purchases: 0, gallonsMilli: 0n, amountCents: 0n };
      e.purchases++;
      e.gallonsMilli += BigInt(r.g);
      e.amountCents += BigInt(r.a);
      rows.set(key, e);
    }
    const goneSince = new Set([...before].filter((key) => !rows.has(key)));
    return { quarter: `${String(year)}-Q${String(last + 1)}`, from, to, rows, goneSince };
  } finally {
    db.close();
  }
}

async function openReport(page: Page, quarter: string): Promise<void> {
  await page.goto(`/reports/jurisdictions?quarter=${quarter}`);
  await expect(page.getByRole("heading", { name: "Fuel by jurisdiction", level: 1 })).toBeVisible();
  await expect(page.getByTestId("jurisdiction-table")).toBeVisible();
  await expectLoaded(page);
}

const total = (rows: Map<string, Expected>): Expected =>
  [...rows.values()].reduce(
    (s, e) => ({
      purchases: s.purchases + e.purchases,
      gallonsMilli: s.gallonsMilli + e.gallonsMilli,
      amountCents: s.amountCents + e.amountCents,
    }),
    { purchases: 0, gallonsMilli: 0n, amountCents: 0n },
  );

test.describe("fuel by jurisdiction", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);

  test.beforeEach(async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
  });

  test("each row and the total equal the sandbox's completed purchases on their local dates", async ({
    loggedInPage: page,
    profile,
  }) => {
    const expected = sandboxQuarter(profile);
    expect(expected.rows.size).toBeGreaterThan(0);
    await openReport(page, expected.quarter);
    await expect(page.getByText("local date", { exact: false }).first()).toBeVisible();
    await expect(page.getByRole("note")).toContainText("miles");
    const table = page.getByTestId("jurisdiction-table");
    const lines = table.locator("tbody tr[data-row]");
    await expect(lines).toHaveCount(expected.rows.size + expected.goneSince.size + 1);
    for (const [key, e] of expected.rows) {
      const row = table.locator(`tr[data-row="${key}"]`);
      await expect(row).toContainText(formatCount(e.purchases));
      await expect(row).toContainText(formatGallons(fromMinorUnits(e.gallonsMilli, 3)));
      await expect(row).toContainText(formatMoney(fromMinorUnits(e.amountCents, 2)));
    }
    const all = total(expected.rows);
    const totalRow = table.locator('tr[data-row="total"]');
    await expect(totalRow).toContainText(formatMoney(fromMinorUnits(all.amountCents, 2)));
    await expect(totalRow).toContainText(formatGallons(fromMinorUnits(all.gallonsMilli, 3)));

    // The CSV export holds the same total.
    const csv = await page.request.get(`/api/reports/jurisdictions/export?quarter=${expected.quarter}&format=csv`);
    expect(csv.status()).toBe(200);
    const csvLines = (await csv.text()).split("\r\n");
    // The header and the rows only: what the file is goes into its name (and the About .txt), never # lines.
    expect(csvLines.some((l) => l.startsWith("#"))).toBe(false);
    expect(csv.headers()["content-disposition"]).toContain("_local-dates_completed_");
    const totalLine = csvLines.find((l) => l.startsWith("Total,"));
    expect(totalLine).toContain(
      `Total,all fuel,${String(all.purchases)},${fromMinorUnits(all.gallonsMilli, 3)},${fromMinorUnits(all.amountCents, 2)},`,
    );
  });

  test("a figure's link lists exactly its purchases: the list's totals tie out", async ({
    loggedInPage: page,
    profile,
  }) => {
    const expected = sandboxQuarter(profile);
    const [key, e] = [...expected.rows.entries()].sort((a, b) => b[1].purchases - a[1].purchases)[0] ?? [];
    if (key === undefined || e === undefined) throw new Error("no purchases in the sandbox's quarter");
    await openReport(page, expected.quarter);
    const link = page.locator(`tr[data-row="${key}"]`).getByRole("link").first();
    const href = await link.getAttribute("href");
    expect(href).toContain("dates=local");
    expect(href).toContain("status=completed");
    const query = new URL(href ?? "", page.url()).search;
    const totals = await page.request.get(`/api/transactions/totals${query}`);
    expect(await totals.json()).toMatchObject({
      transactions: e.purchases,
      amount: fromMinorUnits(e.amountCents, 2),
    });
    // The Total row's link (every completed purchase: no DEF bought alone in the sandbox) ties out the same way.
    const all = total(expected.rows);
    const totalHref = await page.locator('tr[data-row="total"]').getByRole("link").first().getAttribute("href");
    const allTotals = await page.request.get(`/api/transactions/totals${new URL(totalHref ?? "", page.url()).search}`);
    expect(await allTotals.json()).toMatchObject({
      transactions: all.purchases,
      gallons: fromMinorUnits(all.gallonsMilli, 3),
      amount: fromMinorUnits(all.amountCents, 2),
    });
    // By keyboard: focus the link and follow it.
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/transactions\?.*dates=local/);
    await expect(page.getByTestId("list-totals")).toContainText(formatMoney(fromMinorUnits(e.amountCents, 2)));
    // One date basis on the page: the purchases' own local dates, not "Days in UTC" beside it.
    await expect(page.getByTestId("date-hint")).toContainText("own local date");
  });

  test("by keyboard: choose the period, then reach the figures and the exports", async ({
    loggedInPage: page,
    profile,
  }) => {
    const expected = sandboxQuarter(profile);
    await openReport(page, expected.quarter);
    const period = page.getByRole("combobox", { name: "Period" });
    await period.focus();
    // The quarter before: one step down the list of quarters (newest first), by keyboard alone.
    await page.keyboard.press("ArrowDown");
    await expect(page).not.toHaveURL(new RegExp(`quarter=${expected.quarter}$`));
    await expect(page.getByTestId("jurisdiction-table")).toBeVisible();
    await expectLoaded(page);
    // Tab onwards reaches a figure's link before the export buttons.
    const reached: string[] = [];
    for (let i = 0; i < 300 && !reached.includes("Download CSV"); i++) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate(() => (document.activeElement?.textContent ?? "").trim()));
    }
    expect(reached).toContain("Download CSV");
    const firstLink = await page.evaluate(
      () => document.querySelector("[data-testid=jurisdiction-table] a")?.textContent,
    );
    expect(reached.indexOf(firstLink ?? "")).toBeLessThan(reached.indexOf("Download CSV"));
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`no serious or critical axe violation (${scheme} theme)`, async ({ loggedInPage: page, profile }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openReport(page, sandboxQuarter(profile).quarter);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      const blocking = results.violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
      expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }

  test("on a 360 px phone the page does not scroll sideways; the table scrolls in its own box", async ({
    loggedInPage: page,
    profile,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await openReport(page, sandboxQuarter(profile).quarter);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
  });

  test("print: no navigation, a line with customer and range", async ({ loggedInPage: page, profile }) => {
    const expected = sandboxQuarter(profile);
    await openReport(page, expected.quarter);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const printLine = page.getByTestId("print-heading");
    await expect(printLine).toBeVisible();
    await expect(printLine).toContainText(DEMO_CUSTOMER_NAME);
    await expect(printLine).toContainText(`Fuel by jurisdiction · Q${expected.quarter.slice(-1)}`);
    await expect(printLine).toContainText(`(${expected.from} to ${expected.to})`);
  });
});
