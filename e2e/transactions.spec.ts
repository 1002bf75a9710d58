// The transactions journey: the table's total equals the BFF's, filters narrow it and survive a reload through the
// URL, paging and the page size, search, a row's detail, an unknown id, and an axe scan.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { bffTotal, expect, expectLoaded, pageAlerts, signInThroughApi, test } from "./fixtures";

const DEFAULT_PAGE_SIZE = 50;
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

const rows = (page: Page) => page.getByTestId("transaction-row");
const rangeSummary = (page: Page) => page.getByTestId("range-summary");

async function openList(page: Page, query = ""): Promise<void> {
  await page.goto(`/transactions${query}`);
  await expect(page.getByRole("heading", { name: "Transactions", level: 1 })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  await expectLoaded(page);
}

test("the table shows the BFF's total and 50 rows by default", async ({ loggedInPage: page }) => {
  const total = await bffTotal(page);
  expect(total).toBeGreaterThan(DEFAULT_PAGE_SIZE);
  await openList(page);
  await expect(rows(page)).toHaveCount(DEFAULT_PAGE_SIZE);
  await expect(rangeSummary(page)).toHaveText(`1–50 of ${total.toLocaleString("en-US")}`);
});

test("the status filter narrows the rows and survives a reload through the URL", async ({ loggedInPage: page }) => {
  await openList(page);
  await page.getByRole("combobox", { name: "Status" }).selectOption("failed");
  await expect(page).toHaveURL((url) => url.searchParams.get("status") === "failed");
  await expectLoaded(page);
  const failedTotal = await bffTotal(page, "&status=failed");
  await expect(rangeSummary(page)).toContainText(`of ${failedTotal.toLocaleString("en-US")}`);
  const badges = page.getByTestId("status-badge");
  await expect(badges.first()).toBeVisible();
  expect(new Set(await badges.allTextContents())).toEqual(new Set(["Failed"]));

  await page.reload();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("failed");
  await expect(rows(page).first()).toBeVisible();
  await expectLoaded(page);
  expect(new Set(await page.getByTestId("status-badge").allTextContents())).toEqual(new Set(["Failed"]));

  // Back returns to the unfiltered list.
  await page.goBack();
  await expect(page).toHaveURL((url) => url.pathname === "/transactions" && !url.searchParams.has("status"));
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("");
});

test("paging to page 2 changes the first row and the URL; page size 25 shows 25 rows", async ({
  loggedInPage: page,
}) => {
  await openList(page);
  const firstRowOnPage1 = await rows(page).first().textContent();
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("page") === "2");
  await expectLoaded(page);
  await expect(rangeSummary(page)).toContainText("51–100 of");
  expect(await rows(page).first().textContent()).not.toBe(firstRowOnPage1);

  await page.getByRole("combobox", { name: "Rows per page" }).selectOption("25");
  await expect(page).toHaveURL((url) => url.searchParams.get("limit") === "25" && !url.searchParams.has("page"));
  await expectLoaded(page);
  await expect(rows(page)).toHaveCount(25);
});

test("searching a driver's surname from the first row narrows the rows", async ({ loggedInPage: page }) => {
  const total = await bffTotal(page);
  await openList(page);
  const driver = (await rows(page).first().getByTestId("driver-name").textContent())?.trim() ?? "";
  const surname = driver.split(/\s+/).at(-1) ?? "";
  expect(surname).not.toBe("");

  await page.getByRole("searchbox", { name: "Search" }).fill(surname);
  await expect(page).toHaveURL((url) => url.searchParams.get("search") === surname);
  await expectLoaded(page);
  const narrowed = await bffTotal(page, `&search=${encodeURIComponent(surname)}`);
  expect(narrowed).toBeGreaterThan(0);
  expect(narrowed).toBeLessThan(total);
  await expect(rangeSummary(page)).toContainText(`of ${narrowed.toLocaleString("en-US")}`);
  await expect(rows(page).first().getByTestId("driver-name")).toBeVisible();
});

test("searching a transaction's reference lists that transaction (the upstream's search does not match references)", async ({
  loggedInPage: page,
}) => {
  // A reference from deep in the list, so it is not simply on the first page.
  const response = await page.request.get("/api/transactions?page=40&limit=200");
  expect(response.status()).toBe(200);
  const deep = ((await response.json()) as { items: { id: string; reference: string }[] }).items[42];
  if (deep === undefined) throw new Error("no transaction on page 40 of 200-row pages");
  await openList(page);
  await page.getByRole("searchbox", { name: "Search" }).fill(deep.reference);
  await expect(page).toHaveURL((url) => url.searchParams.get("search") === deep.reference);
  await expectLoaded(page);
  await expect(rows(page)).toHaveCount(1);
  await expect(rangeSummary(page)).toContainText("of 1");
  await expect(page.getByTestId("totals-purchases")).toHaveText("1");
  await rows(page).first().click();
  await expect(page).toHaveURL((url) => url.pathname === `/transactions/${deep.id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Transaction ${deep.reference}` })).toBeVisible();
});

test("the totals bar above the table shows the filtered set's purchases, gallons and amount, as the BFF adds them up", async ({
  loggedInPage: page,
}) => {
  const query = "from=2026-05-01&to=2026-05-31&status=completed";
  const totalsResponse = await page.request.get(`/api/transactions/totals?${query}`);
  expect(totalsResponse.status()).toBe(200);
  const totals = (await totalsResponse.json()) as {
    state: string;
    transactions: number;
    gallons: string;
    amount: string;
  };
  expect(totals.state).toBe("summed");
  const listTotal = await bffTotal(page, `&${query}`);
  expect(totals.transactions).toBe(listTotal);

  await openList(page, `?range=custom&${query}`);
  const bar = page.getByRole("region", { name: "Totals of the filtered transactions" });
  await expect(bar.getByTestId("totals-purchases")).toHaveText(listTotal.toLocaleString("en-US"));
  await expect(bar.getByTestId("totals-gallons")).toHaveText(
    new Intl.NumberFormat("en-US", { minimumFractionDigits: 3 }).format(totals.gallons as Intl.StringNumericLiteral),
  );
  await expect(bar.getByTestId("totals-amount")).toHaveText(
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
      totals.amount as Intl.StringNumericLiteral,
    ),
  );
  // It sits above the table.
  const barBox = await bar.boundingBox();
  const tableBox = await page.getByRole("table").boundingBox();
  expect(barBox !== null && tableBox !== null && barBox.y < tableBox.y).toBe(true);

  // The whole history is too large to add up (it would cost one request per 200 rows): the count, and what to do.
  await openList(page);
  const all = await bffTotal(page);
  await expect(bar.getByTestId("totals-purchases")).toHaveText(all.toLocaleString("en-US"));
  await expect(bar.getByTestId("totals-amount")).toHaveText("Not added up");
  await expect(bar).toContainText("narrow the dates or the status");
});

test("clicking a row opens its detail with the same amount; Back to transactions keeps the view", async ({
  loggedInPage: page,
}) => {
  await openList(page, "?status=completed");
  const row = rows(page).nth(2);
  const amount = (await row.locator('[data-column="amount"]').textContent())?.trim() ?? "";
  expect(amount).toMatch(/^\$/);
  await row.click();

  await expect(page).toHaveURL((url) => url.pathname.startsWith("/transactions/"));
  await expect(page.getByTestId("detail-amount")).toHaveText(amount);
  await expect(page.getByRole("heading", { name: "Station" })).toBeVisible();

  await page.getByRole("link", { name: "Back to transactions" }).click();
  await expect(page).toHaveURL(
    (url) => url.pathname === "/transactions" && url.searchParams.get("status") === "completed",
  );
});

test("Enter on a focused row opens its detail", async ({ loggedInPage: page }) => {
  await openList(page);
  await rows(page).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/transactions/"));
  await expect(page.getByTestId("detail-amount")).toBeVisible();
});

test("an unknown id answers HTTP 404 with the not-found message and a way back", async ({ loggedInPage: page }) => {
  // Both an id the upstream does not know and one that cannot be an id at all (refused without asking the upstream).
  for (const id of ["00000000-0000-4000-8000-000000000000", "no such transaction!"]) {
    const response = await page.goto(`/transactions/${encodeURIComponent(id)}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Transaction not found" })).toBeVisible();
  }
  await page.goto("/transactions/no-such-transaction-000");
  await expect(page.getByRole("heading", { name: "Transaction not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to transactions" })).toHaveAttribute("href", "/transactions");
});

test("the transactions page has no serious or critical axe violation", async ({ loggedInPage: page }) => {
  await openList(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""));
  const report = blocking
    .map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`)
    .join("\n");
  expect(blocking, `axe found serious or critical violations:\n${report}`).toEqual([]);
});

// ---------------------------------------------------------------------------------------------------------------
// Toolbar and footer (issue 13, item 4)

for (const width of [1024, 1280, 1366, 375]) {
  test(`the Columns menu opens inside the viewport at ${String(width)} px and every checkbox can be clicked`, async ({
    loggedInPage: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openList(page);
    await page.getByRole("button", { name: "Columns" }).click();
    const menu = page.getByRole("group", { name: "Columns to show" });
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
    const boxes = menu.getByRole("checkbox");
    const count = await boxes.count();
    expect(count).toBeGreaterThan(5);
    for (let i = 0; i < count; i += 1) {
      const checkbox = boxes.nth(i);
      // A real click at the checkbox's place: it fails when the box is off screen or covered.
      await checkbox.click();
      await expect(checkbox).not.toBeChecked();
      await checkbox.click();
      await expect(checkbox).toBeChecked();
    }
  });
}

test("?page=999999 goes to the last page, and the footer adds up", async ({ loggedInPage: page }) => {
  const total = await bffTotal(page);
  const lastPage = Math.ceil(total / DEFAULT_PAGE_SIZE);
  await page.goto("/transactions?page=999999");
  await expect(page).toHaveURL((url) => url.searchParams.get("page") === String(lastPage));
  await expectLoaded(page);
  await expect(rangeSummary(page)).toHaveText(
    `${((lastPage - 1) * DEFAULT_PAGE_SIZE + 1).toLocaleString("en-US")}–${total.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`,
  );
  await expect(page.getByTestId("page-of")).toHaveText(
    `Page ${lastPage.toLocaleString("en-US")} of ${lastPage.toLocaleString("en-US")}`,
  );
  // The oldest rows are from an earlier year (the demo's history is two years long): their dates say which.
  await expect(rows(page).last().locator("time")).toHaveText(/\b20\d\d\b/);
});

test("after Next, the footer keeps describing the rows on screen until the new rows arrive", async ({
  loggedInPage: page,
}) => {
  const total = (await bffTotal(page)).toLocaleString("en-US");
  await openList(page);
  const firstRow = await rows(page).first().textContent();
  // Holds the real request for page 2 until released (it then goes to the BFF unchanged): a slow answer on cue.
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === "/api/transactions" && url.searchParams.get("page") === "2",
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get("page") === "2");
  await page.getByRole("button", { name: "Next page" }).click();
  await asked;
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(1);
  await expect(rangeSummary(page)).toHaveText(`1–50 of ${total}`);
  expect(await rows(page).first().textContent()).toBe(firstRow);
  release();
  await expectLoaded(page);
  await expect(rangeSummary(page)).toHaveText(`51–100 of ${total}`);
});

test("under an error the footer does not say Loading…", async ({ page, appOrigin, demoKeys }) => {
  // A key without the transactions scope: the list fails with 403 at once (never retried).
  await signInThroughApi(page.request, appOrigin, demoKeys["demo-no-transactions"]);
  await page.goto("/transactions");
  await expect(pageAlerts(page).first()).toBeVisible();
  await expect(rangeSummary(page)).toHaveText("No transactions to show");
});

test("choosing Custom keeps the current range until a date is picked", async ({ loggedInPage: page }) => {
  await openList(page, "?range=30d");
  const summary = await rangeSummary(page).textContent();
  await page.getByRole("combobox", { name: "Date range" }).selectOption("custom");
  await expect(page).toHaveURL(
    (url) => url.searchParams.get("range") === "custom" && url.searchParams.has("from") && url.searchParams.has("to"),
  );
  await expect(page.getByLabel("From", { exact: true })).not.toHaveValue("");
  await expect(page.getByLabel("To", { exact: true })).not.toHaveValue("");
  await expectLoaded(page);
  await expect(rangeSummary(page)).toHaveText(summary ?? "");
});

test("a link with a bad end date says what is wrong in words; so does the BFF", async ({ loggedInPage: page }) => {
  await page.goto("/transactions?from=2026-01-01&to=garbage");
  await expect(
    page.getByText("The end date “garbage” is not a date written as YYYY-MM-DD; the list has no end date."),
  ).toBeVisible();

  const response = await page.request.get("/api/transactions?from=2026-13-45&to=soon");
  expect(response.status()).toBe(400);
  const body = (await response.json()) as { error: { message: string } };
  expect(body.error.message).toContain("The start date (from) “2026-13-45” is not a day of the calendar.");
  expect(body.error.message).toContain(
    "The end date (to) must be a day written as YYYY-MM-DD, e.g. 2026-05-01; “soon” is not.",
  );
  expect(body.error.message).not.toMatch(/\b(from|to): /);
});

// ---------------------------------------------------------------------------------------------------------------
// Time zones (issue 13, item 6): the browser's zone by default, one zone for the filters and the times.

/** The calendar day an instant falls on in a zone. */
function dayIn(zone: string, instant: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
}

const ZONES = [
  { zone: "America/Los_Angeles", label: /\b(PST|PDT)$/ },
  { zone: "Asia/Tokyo", label: /\bUTC\+9$/ },
] as const;

for (const { zone, label } of ZONES) {
  test.describe(`from ${zone}`, () => {
    test.use({ timezoneId: zone });

    test("a day's filter and every time on screen are in the browser's zone, labelled", async ({
      loggedInPage: page,
    }) => {
      // Three days ago there, a whole day of the demo's history.
      const day = dayIn(zone, new Date(Date.now() - 3 * 86_400_000));
      await openList(page, `?range=custom&from=${day}&to=${day}`);
      await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue(zone);
      await expect(page.getByTestId("date-hint")).toContainText(`Days in ${zone}`);
      await expect(page).toHaveURL((url) => url.searchParams.get("tz") === zone);

      const times = rows(page).locator("time");
      const texts = await times.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).toMatch(label);
      const instants = (await times.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime") ?? ""))).map(
        (iso) => new Date(iso),
      );
      const total = await bffTotal(page, `&from=${day}&to=${day}&tz=${encodeURIComponent(zone)}`);
      await expect(rangeSummary(page)).toContainText(`of ${total.toLocaleString("en-US")}`);
      // The zone's day exactly: sent as instants (alternative), or its covering UTC days trimmed by the BFF (primary).
      for (const at of instants) expect(dayIn(zone, at)).toBe(day);
    });

    test("the zone can be changed: in the URL, remembered for the next visit, and the times follow", async ({
      loggedInPage: page,
    }) => {
      await openList(page, "?range=7d");
      await page.getByRole("combobox", { name: "Time zone" }).selectOption("UTC");
      await expect(page).toHaveURL((url) => url.searchParams.get("tz") === "UTC");
      await expectLoaded(page);
      await expect(page.getByTestId("date-hint")).toContainText("Days in UTC");
      for (const text of await rows(page).locator("time").allTextContents()) expect(text).toMatch(/\bUTC$/);

      await openList(page);
      await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue("UTC");
      await page.getByRole("combobox", { name: "Time zone" }).selectOption(zone);
      await expect(rows(page).first().locator("time")).toHaveText(label);
    });

    test("the export's days and file name follow the zone", async ({ loggedInPage: page }) => {
      const day = dayIn(zone, new Date(Date.now() - 3 * 86_400_000));
      await openList(page, `?range=custom&from=${day}&to=${day}`);
      const downloadPromise = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export CSV" }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toContain(`${day}_to_${day}_${zone.replace("/", "-")}`);
      const total = await bffTotal(page, `&from=${day}&to=${day}&tz=${encodeURIComponent(zone)}`);
      await expect(page.getByText(`Exported ${total.toLocaleString("en-US")} row`)).toBeVisible();
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Load time (issue 14, item 7): the zone list is built when it is needed, and the first render matches the server's.

test("the zone select lists the common zones until it gets focus, then every zone, and one can be chosen by keyboard", async ({
  loggedInPage: page,
}) => {
  await openList(page);
  const select = page.getByRole("combobox", { name: "Time zone" });
  const everyZone = select.locator('optgroup[label="Every zone"]');
  expect(await select.locator("option").count()).toBeLessThanOrEqual(10);
  await expect(everyZone).toHaveCount(0);

  // Keyboard only: Tab from the search field into the select builds the whole list.
  await page.getByRole("searchbox", { name: "Search" }).focus();
  await page.keyboard.press("Tab");
  await expect(select).toBeFocused();
  const zoneCount = await page.evaluate(() => Intl.supportedValuesOf("timeZone").length);
  await expect(everyZone.locator("option")).not.toHaveCount(0);
  expect(await select.locator("option").count()).toBeGreaterThanOrEqual(zoneCount);

  // End picks the last zone of "Every zone" (a closed select changes its value on the key, as Chromium does).
  const last = (await everyZone.locator("option").last().getAttribute("value")) ?? "";
  expect(last).not.toBe("");
  await page.keyboard.press("End");
  await expect(page).toHaveURL((url) => url.searchParams.get("tz") === last);
  await expect(select).toHaveValue(last);
  await expect(page.getByTestId("date-hint")).toContainText(`Days in ${last}`);
});

test.describe("from America/Los_Angeles, the first load", () => {
  test.use({ timezoneId: "America/Los_Angeles" });

  test("hydrates without a mismatch, in the browser's zone, asking for the list in that zone only", async ({
    loggedInPage: page,
  }) => {
    const zone = "America/Los_Angeles";
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => {
      problems.push(error.message);
    });
    const listZones = new Set<string>();
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/transactions") listZones.add(url.searchParams.get("tz") ?? "");
    });

    await openList(page, "?range=7d");
    await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue(zone);
    await expect(page.getByTestId("date-hint")).toContainText(`Days in ${zone}`);
    await expect(page).toHaveURL((url) => url.searchParams.get("tz") === zone);
    expect(problems.filter((text) => /hydrat|#418/i.test(text))).toEqual([]);
    expect([...listZones]).toEqual([zone]);
  });
});
