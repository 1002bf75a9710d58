// The transactions journey, the toolbar and the footer (issue 13, item 4): the Columns menu in every viewport, the last
// page, the footer while a page loads and under an error, the custom range, and a bad date in a link.
import { bffTotal, expect, expectLoaded, pageAlerts, signInThroughApi, test } from "./fixtures";
import { DEFAULT_PAGE_SIZE, openList, rangeSummary, rows } from "./transactions-page";

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
