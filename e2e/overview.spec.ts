// The overview's figures against the BFF's own answers (which the sandbox backs): the 30-day totals, the 30-day chart,
// the top drivers and the latest transactions; a key without the transactions scope still sees its account; an axe
// scan with the data loaded.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { DEMO_CUSTOMER_NAME, expect, expectLoaded, signInThroughApi, test } from "./fixtures";

// The dashboard formats in en-US (lib/format/numbers.ts): the test formats the BFF's figures the same way.
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const gallons = new Intl.NumberFormat("en-US", { minimumFractionDigits: 3, maximumFractionDigits: 3 });
const count = new Intl.NumberFormat("en-US");
const decimal = (value: string) => value as Intl.StringNumericLiteral;

interface AccountBody {
  name: string;
  totals30d: { transactions: number; gallons: string; amount: string } | null;
}
interface SummaryBody {
  totals: { transactions: number; gallons: string; amount: string };
  from: string;
  to: string;
  daily: { date: string }[];
  topDrivers: { id: string; name: string; detail: string | null; transactions: number; amount: string }[];
}
interface TransactionsBody {
  total: number;
  items: { id: string; amount: string; driver: { id: string; name: string }; station: { name: string } }[];
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), `${url} answered ${response.status()}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** The value, or a failed test saying what was missing. */
function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

async function openOverview(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expectLoaded(page);
}

test("the 30-day totals equal the BFF's account totals", async ({ loggedInPage: page }) => {
  const account = await getJson<AccountBody>(page, "/api/account");
  const totals = present(account.totals30d, "30-day totals in /api/account (demo-full has the transactions scope)");
  await openOverview(page);

  const card = page.getByRole("region", { name: "Last 30 days (rolling)" });
  const stats = await card
    .locator("dt")
    .evaluateAll((terms) =>
      terms.map((term): [string, string] => [term.textContent, term.nextElementSibling?.textContent ?? ""]),
    );
  const byLabel: Record<string, string> = Object.fromEntries(stats);
  expect(byLabel).toMatchObject({
    Transactions: count.format(totals.transactions),
    Gallons: gallons.format(decimal(totals.gallons)),
    Spend: money.format(decimal(totals.amount)),
  });
});

test("the two 30-day totals each say which 30 days they count, so a person sees why they differ", async ({
  loggedInPage: page,
}) => {
  const summary = await getJson<SummaryBody>(page, "/api/transactions/summary");
  await openOverview(page);
  // The card: the rolling window (30 × 24 hours up to now), and a pointer to the chart's other definition.
  const card = page.getByRole("region", { name: "Last 30 days (rolling)" });
  await expect(card).toContainText("30 × 24 hours up to now");
  await expect(card).toContainText("calendar days (UTC)");
  // Under the chart: its own totals, visible, labelled as calendar days (today so far), equal to the summary's.
  const line = page.getByRole("region", { name: "Daily spend and gallons" }).getByTestId("chart-totals");
  await expect(line).toBeVisible();
  await expect(line).toContainText("Calendar days");
  await expect(line).toContainText("today so far");
  await expect(line).toContainText(`${count.format(summary.totals.transactions)} transactions`);
  await expect(line).toContainText(money.format(decimal(summary.totals.amount)));
  await expect(line).toContainText(`${gallons.format(decimal(summary.totals.gallons))} gal`);
  await expect(line).toContainText("rolling total above counts the 30 × 24 hours up to now");
});

test("the chart has one entry per day of the last 30 days, also as a table", async ({ loggedInPage: page }) => {
  const summary = await getJson<SummaryBody>(page, "/api/transactions/summary");
  expect(summary.daily).toHaveLength(30);
  await openOverview(page);

  const card = page.getByRole("region", { name: "Daily spend and gallons" });
  const chart = card.getByRole("img", { name: /Daily spend and gallons/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("[data-day]")).toHaveCount(30);
  await expect(chart.locator("[data-day]").first()).toHaveAttribute(
    "data-day",
    present(summary.daily[0], "a first day").date,
  );
  await expect(chart.locator("[data-day]").last()).toHaveAttribute(
    "data-day",
    present(summary.daily[29], "a 30th day").date,
  );

  // The data table is there for screen readers all along, and shown on request.
  const rows = card.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(30);
  const toggle = card.getByRole("button", { name: "Show as table" });
  await toggle.click();
  await expect(card.getByRole("button", { name: "Hide table" })).toHaveAttribute("aria-expanded", "true");
  await expect(rows.first()).toBeVisible();
});

test("the top drivers' first row is the summary's first driver", async ({ loggedInPage: page }) => {
  const summary = await getJson<SummaryBody>(page, "/api/transactions/summary");
  const first = present(summary.topDrivers[0], "a top driver (the demo customer has spend in the last 30 days)");
  await openOverview(page);

  const row = page.getByRole("region", { name: "Top drivers by spend" }).locator("tbody tr").first();
  await expect(row.getByRole("rowheader")).toContainText(first.name);
  await expect(row.getByRole("cell").nth(0)).toHaveText(count.format(first.transactions));
  await expect(row.getByRole("cell").nth(1)).toHaveText(money.format(decimal(first.amount)));
  await expect(page.getByRole("region", { name: "Top stations by spend" }).locator("tbody tr")).not.toHaveCount(0);
  // The list states its period and basis (issue 25: it had none).
  await expect(page.getByRole("region", { name: "Top drivers by spend" }).getByTestId("ranking-period")).toHaveText(
    new RegExp(`^${summary.from} to ${summary.to}, by (each purchase's local date|UTC calendar day); `),
  );
});

test("the latest transactions list the 10 newest, each linking to its detail", async ({ loggedInPage: page }) => {
  const newest = await getJson<TransactionsBody>(page, "/api/transactions?limit=1");
  const first = present(newest.items[0], "a transaction (the demo customer has some)");
  await openOverview(page);

  const card = page.getByRole("region", { name: "Latest transactions" });
  const rows = card.locator("tbody tr");
  await expect(rows).toHaveCount(Math.min(10, newest.total));
  const firstRow = rows.first();
  await expect(firstRow.getByRole("link").first()).toHaveAttribute(
    "href",
    `/transactions/${encodeURIComponent(first.id)}`,
  );
  // Names link to their drill-down pages (issue 16).
  await expect(firstRow.getByRole("link", { name: first.driver.name })).toHaveAttribute(
    "href",
    `/drivers/${encodeURIComponent(first.driver.id)}`,
  );
  await expect(firstRow).toContainText(first.station.name);
  await expect(firstRow).toContainText(first.driver.name);
  await expect(firstRow).toContainText(money.format(decimal(first.amount)));
  await expect(card.getByRole("link", { name: /View all transactions/ })).toHaveAttribute("href", "/transactions");
});

test("a key without the transactions scope sees its account, and the transaction cards say which scope is missing", async ({
  page,
  appOrigin,
  demoKeys,
}) => {
  await signInThroughApi(page.request, appOrigin, demoKeys["demo-no-transactions"]);
  await openOverview(page);

  await expect(page.getByRole("region", { name: "Account" })).toContainText(DEMO_CUSTOMER_NAME);
  const latest = page.getByRole("region", { name: "Latest transactions" });
  await expect(latest.getByRole("alert")).toContainText(/scope/i);
  await expect(latest.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Daily spend and gallons" }).getByRole("alert")).toContainText(
    /scope/i,
  );
  await expect(page.getByRole("region", { name: "Top drivers by spend" }).getByRole("alert")).toContainText(/scope/i);
});

test("the overview with its data loaded has no serious or critical axe violation", async ({ loggedInPage: page }) => {
  await openOverview(page);
  await expect(page.getByRole("region", { name: "Latest transactions" }).locator("tbody tr").first()).toBeVisible();
  // With the chart's table shown too.
  await page.getByRole("button", { name: "Show as table" }).click();
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = blocking
    .map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`)
    .join("\n");
  expect(blocking, `axe found serious or critical violations:\n${report}`).toEqual([]);
});
