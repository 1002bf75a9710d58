// The local copy (the mirror, issue 15) in the pages: the shell's sync line and "Sync now", the transactions page's
// filters only the local copy answers (facets, ranges with messages, URL, reset), sorting by column headers, the
// origin line, the export of exactly those filters, and the overview's change vs the previous 30 days.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { bffTotal, expect, expectLoaded, signInThroughApi, test } from "./fixtures";
import { MIRROR_READY_TIMEOUT_MS, waitForMirrorReady } from "./mirror-ready";

const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

const rows = (page: Page) => page.getByTestId("transaction-row");
const rangeSummary = (page: Page) => page.getByTestId("range-summary");

async function openList(page: Page, query = ""): Promise<void> {
  await page.goto(`/transactions${query}`);
  await expect(rows(page).first()).toBeVisible();
  await expectLoaded(page);
}

/** "$1,234.50" → 1234.5 */
function amountOf(text: string | null): number {
  return Number((text ?? "").replace(/[$,\s]/g, ""));
}

async function amountsOnScreen(page: Page): Promise<number[]> {
  return (await rows(page).locator('[data-column="amount"]').allTextContents()).map(amountOf);
}

/** Non-empty and in order (a page of the newest first is not sorted by amount either way). */
function isSorted(amounts: number[], dir: "asc" | "desc"): boolean {
  if (amounts.length < 2) return false;
  const ordered = [...amounts].sort((a, b) => (dir === "asc" ? a - b : b - a));
  return ordered.every((amount, i) => amount === amounts[i]);
}

async function openMoreFilters(page: Page): Promise<void> {
  const more = page.getByTestId("more-filters");
  if ((await more.getAttribute("open")) === null) await more.locator("summary").click();
  await expect(page.getByRole("combobox", { name: "Driver" })).toBeVisible();
}

test.describe("with the local copy ready", () => {
  test.setTimeout(MIRROR_READY_TIMEOUT_MS + 60_000);

  test.beforeEach(async ({ loggedInPage: page }) => {
    await waitForMirrorReady(page);
  });

  test("the shell says the copy is up to date, and Sync now asks for a sync with the CSRF header", async ({
    loggedInPage: page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("sync-status-line")).toHaveText(/^Up to date( · (just now|\d+ s ago|\d+ min ago))?$/);
    await expect(page.getByRole("status").filter({ hasText: "is up to date" })).toHaveCount(1);
    const post = page.waitForRequest((request) => request.url().endsWith("/api/sync") && request.method() === "POST");
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/sync") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Sync now" }).click();
    expect((await post).headers()["x-requested-with"]).toBe("XMLHttpRequest");
    expect((await answer).status()).toBeLessThan(300);
    // One head sync per 30 s (issue 24 item 3): once it has run, the button waits out the rest, seconds shown.
    await expect(page.getByRole("button", { name: /^Sync now · in \d+ s$/ })).toBeDisabled({ timeout: 30_000 });
    await expect(page.getByTestId("sync-status-line")).toHaveText(/^Up to date/);
  });

  test("the list says it comes from the local copy; a driver from the facets narrows it and survives a reload", async ({
    loggedInPage: page,
  }) => {
    await openList(page);
    await expect(page.getByTestId("data-origin")).toHaveText(/^From your local copy · as of /);
    await openMoreFilters(page);
    const driver = page.getByRole("combobox", { name: "Driver" });
    const option = driver.locator("option").nth(1);
    const id = (await option.getAttribute("value")) ?? "";
    const label = (await option.textContent()) ?? "";
    expect(id).not.toBe("");
    await driver.selectOption(id);
    await expect(page).toHaveURL((url) => url.searchParams.get("driver") === id);
    await expectLoaded(page);
    const total = await bffTotal(page, `&driver=${encodeURIComponent(id)}`);
    expect(total).toBeGreaterThan(0);
    await expect(rangeSummary(page)).toContainText(`of ${total.toLocaleString("en-US")}`);
    const name = label.replace(/ \(truck .*\)$/, "");
    expect(new Set(await rows(page).getByTestId("driver-name").allTextContents())).toEqual(new Set([name]));
    await expect(page.getByTestId("more-filters").locator("summary")).toHaveText("More filters (1 on)");

    await page.reload();
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Driver" })).toHaveValue(id);
    await expect(rangeSummary(page)).toContainText(`of ${total.toLocaleString("en-US")}`);
  });

  test("the station filter is a field with suggestions: a suggestion's text filters, other text says so (issue 26)", async ({
    loggedInPage: page,
  }) => {
    await openList(page);
    await openMoreFilters(page);
    const station = page.getByRole("combobox", { name: "Station" });
    // The suggestions are the facets' stations, as "name, city, ST" (thousands: no select to scroll through).
    const suggestion = station.locator("xpath=following-sibling::datalist/option").first();
    const label = (await suggestion.getAttribute("value")) ?? "";
    expect(label).toMatch(/, [A-Z]{2}$/);
    await station.fill(label);
    await expect(page).toHaveURL((url) => (url.searchParams.get("station") ?? "") !== "");
    const id = new URL(page.url()).searchParams.get("station") ?? "";
    await station.fill("Nowhere at all");
    await expect(station).toHaveAccessibleDescription(/Pick one of the suggestions .* still filtered by /);
    await expect(page).toHaveURL((url) => url.searchParams.get("station") === id);
    await station.fill("");
    await expect(page).toHaveURL((url) => !url.searchParams.has("station"));
  });

  test("an amount range: a typo is said under the field and not sent; a valid bound narrows; Clear filters resets all", async ({
    loggedInPage: page,
  }) => {
    await openList(page, "?status=completed");
    await openMoreFilters(page);
    const min = page.getByRole("textbox", { name: "Min amount ($)" });
    const max = page.getByRole("textbox", { name: "Max amount ($)" });
    await min.fill("12,5");
    await expect(min).toHaveAttribute("aria-invalid", "true");
    await expect(min).toHaveAccessibleDescription(
      /Enter a number such as 25, 1,000 or 25\.50 .* The list below is not filtered by amount until this is fixed\./,
    );
    await expect(page).toHaveURL((url) => !url.searchParams.has("amountMin"));

    await min.fill("150");
    await expect(page).toHaveURL((url) => url.searchParams.get("amountMin") === "150");
    const narrowed = await bffTotal(page, "&status=completed&amountMin=150");
    expect(narrowed).toBeGreaterThan(0);
    await expect(rangeSummary(page)).toContainText(`of ${narrowed.toLocaleString("en-US")}`);
    await expectLoaded(page);
    expect((await amountsOnScreen(page)).every((amount) => amount >= 150)).toBe(true);

    await max.fill("100");
    await expect(max).toHaveAccessibleDescription(
      "The lowest amount (150) is above the highest (100). The list below still shows amounts from $150 until this is fixed.",
    );
    await expect(page).toHaveURL((url) => !url.searchParams.has("amountMax"));

    // A bound no purchase reaches: the empty state offers Clear filters, which resets these filters with the rest.
    // Typed as people write amounts ($ and thousands separators), sent plain.
    await max.fill("");
    await min.fill("$999,999");
    await expect(page).toHaveURL((url) => url.searchParams.get("amountMin") === "999999");
    await expect(page.getByText("No transactions match these filters")).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL((url) => url.search === "");
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Min amount ($)" })).toHaveValue("");
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("");
  });

  test("column headers sort the rows (aria-sort, mouse and keyboard), in the URL", async ({ loggedInPage: page }) => {
    await openList(page, "?range=30d");
    await expect(page.getByRole("columnheader", { name: "Date-time" })).toHaveAttribute("aria-sort", "descending");
    const amountHeader = page.getByRole("columnheader", { name: "Amount" });
    await expect(amountHeader).toHaveAttribute("aria-sort", "none");

    await amountHeader.getByRole("button").click();
    await expect(page).toHaveURL(
      (url) => url.searchParams.get("sort") === "amount" && url.searchParams.get("dir") === "asc",
    );
    await expect(amountHeader).toHaveAttribute("aria-sort", "ascending");
    // The header says the new order at once; the rows follow when the answer comes.
    await expect.poll(async () => isSorted(await amountsOnScreen(page), "asc")).toBe(true);
    const ascending = await amountsOnScreen(page);

    await amountHeader.getByRole("button").focus();
    await page.keyboard.press("Enter");
    await expect(amountHeader).toHaveAttribute("aria-sort", "descending");
    await expect.poll(async () => isSorted(await amountsOnScreen(page), "desc")).toBe(true);
    const descending = await amountsOnScreen(page);
    expect(descending[0]).toBeGreaterThanOrEqual(ascending.at(-1) ?? 0);
  });

  test("the export asks for exactly the filters and the order shown, and has as many rows as the list", async ({
    loggedInPage: page,
  }) => {
    await openList(page, "?range=30d&status=completed&product=diesel&amountMin=50&sort=amount&dir=asc");
    const summary = (await rangeSummary(page).textContent()) ?? "";
    const total = Number(/of ([\d,]+)/.exec(summary)?.[1]?.replace(/,/g, "") ?? "NaN");
    expect(total).toBeGreaterThan(0);
    const request = page.waitForRequest((r) => r.url().includes("/api/transactions/export?"));
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const params = new URL((await request).url()).searchParams;
    expect({
      status: params.get("status"),
      product: params.get("product"),
      amountMin: params.get("amountMin"),
      sort: params.get("sort"),
      dir: params.get("dir"),
      hasDates: params.has("from") && params.has("to") && params.has("tz"),
    }).toEqual({ status: "completed", product: "diesel", amountMin: "50", sort: "amount", dir: "asc", hasDates: true });
    await download;
    await expect(page.getByText(new RegExp(`Exported ${total.toLocaleString("en-US")} rows? to `))).toBeVisible();
  });

  test("the totals bar adds up the whole history from the local copy (no 5,000-row limit), as the BFF does", async ({
    loggedInPage: page,
  }) => {
    const response = await page.request.get("/api/transactions/totals");
    const totals = (await response.json()) as { state: string; transactions: number; amount: string };
    expect(totals.state).toBe("summed");
    expect(totals.transactions).toBeGreaterThan(5_000);
    await openList(page);
    const bar = page.getByRole("region", { name: "Totals of the filtered transactions" });
    await expect(bar.getByTestId("totals-purchases")).toHaveText(totals.transactions.toLocaleString("en-US"));
    await expect(bar.getByTestId("totals-amount")).toHaveText(
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
        totals.amount as Intl.StringNumericLiteral,
      ),
    );
  });

  test("the overview says the change in spend vs the previous 30 days in words", async ({ loggedInPage: page }) => {
    await page.goto("/");
    const change = page.getByTestId("period-change");
    // The charged spend counts pending purchases on both sides (like for like): a direction, and while the last 30
    // days still hold pending purchases it says so (issue 25: the metrics layer's rule).
    await expect(change).toHaveText(
      /^(▲ \d[\d,]*\.\d % more spend than|▼ \d[\d,]*\.\d % less spend than|The same spend as) the previous 30 days \(\$[\d,]+\.\d\d\)(; \d+ days? still settling \(\d[\d,]* purchases? pending\), so it may still change)?\.$/,
    );
    // The arrow only repeats the words: it is hidden from screen readers.
    await expect(change.locator('[aria-hidden="true"]')).toHaveCount(
      ((await change.textContent()) ?? "").startsWith("The") ? 0 : 1,
    );
  });

  test("the transactions page with More filters open has no serious or critical axe violation", async ({
    loggedInPage: page,
  }) => {
    await openList(page, "?product=diesel&amountMin=1");
    await openMoreFilters(page);
    await page.getByRole("textbox", { name: "Max amount ($)" }).fill("abc");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""));
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
});

test("a key without the transactions scope: GET /api/sync says off, and the shell shows no sync line nor Sync now", async ({
  page,
  appOrigin,
  demoKeys,
}) => {
  await signInThroughApi(page.request, appOrigin, demoKeys["demo-no-transactions"]);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expectLoaded(page);
  const sync = await page.request.get("/api/sync");
  expect(((await sync.json()) as { state: string }).state).toBe("off");
  await expect(page.getByTestId("sync-status-line")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
});

test("a filter the local copy cannot answer yet: the BFF's sentence where the filters are, and a way out", async ({
  loggedInPage: page,
}) => {
  // Mocked: the BFF answers 409 only while the local copy is still being made (or off), a window too short to hit
  // reliably in a test. The page's handling of that answer is what is tested; the BFF's 409 has its own tests.
  const sentence = "Filtering by driver needs the local copy of your transactions, which is still loading.";
  await page.route(/\/api\/transactions\?.*driver=/, (route) =>
    route.fulfill({ status: 409, json: { error: { code: "mirror_unavailable", message: sentence } } }),
  );
  await page.goto("/transactions?driver=D-0001&status=completed");
  const notice = page.getByTestId("mirror-conflict");
  await expect(notice).toContainText(sentence);
  await expect(page.getByRole("search", { name: "Filter transactions" }).getByTestId("mirror-conflict")).toBeVisible();
  await notice.getByRole("button", { name: "Remove those filters" }).click();
  await expect(page).toHaveURL(
    (url) => !url.searchParams.has("driver") && url.searchParams.get("status") === "completed",
  );
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByTestId("mirror-conflict")).toHaveCount(0);
});
