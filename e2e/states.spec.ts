// The states a user must understand (issue 5, item 7) and the export's progress, against a real upstream fault: the
// project's sandbox runs with --control, and each test makes it slow, failing or rate-limiting through
// /sandbox/faults, then puts it back. Every fault is reset after each test, pass or fail.
import { readFile } from "node:fs/promises";

import type { Page, Request } from "@playwright/test";

import {
  bffTotal,
  createSandboxKey,
  expect,
  expectLoaded,
  liveTest as test,
  pageAlerts,
  resetSandboxFaults,
  setSandboxFaults,
  signInThroughApi,
} from "./fixtures";
import { RATE_LIMIT_SECONDS } from "./profiles";

// On the app without a mirror (fixtures.ts liveTest): these faults are the upstream's, which a synced mirror never asks.

test.afterEach(async ({ profile }) => {
  await resetSandboxFaults(profile);
});

const isListCall = (request: Request) => new URL(request.url()).pathname === "/api/transactions";

test("a rate-limited upstream shows one banner with a countdown, and the page retries by itself when it ends", async ({
  page,
  appOrigin,
  profile,
}) => {
  test.setTimeout(120_000);
  // Its own key: the BFF pauses the key the 429 was for, and the other tests' key must not wait.
  await signInThroughApi(page.request, appOrigin, createSandboxKey(profile));
  const listCalls: Request[] = [];
  page.on("request", (request) => {
    if (isListCall(request)) listCalls.push(request);
  });
  // Beyond the interactive wait (E2E_INTERACTIVE_WAIT_SECONDS here, 30 s in production) the BFF does not make the
  // person wait behind a spinner: it answers 429 with the wait at once.
  await setSandboxFaults(profile, { rateLimitSeconds: RATE_LIMIT_SECONDS });
  // A page of the list no other test asks for, so the BFF's cache cannot answer it.
  await page.goto("/transactions?status=completed&limit=25&page=7");

  const banner = page.getByTestId("rate-limit-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("request limit");
  await expect(page.getByText("Paused by the request limit")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "will try again by itself in about" })).toHaveCount(1);
  const seconds = page.getByTestId("rate-limit-seconds");
  const first = Number(await seconds.textContent());
  // The wait the upstream asked for, less the page's load (up to 10 s on a loaded machine).
  expect(first).toBeGreaterThan(RATE_LIMIT_SECONDS - 10);
  expect(first).toBeLessThanOrEqual(RATE_LIMIT_SECONDS);
  await expect.poll(async () => Number(await seconds.textContent()), { timeout: 5000 }).toBeLessThan(first);
  // No retry storm while waiting: the one failed call, nothing more.
  expect(listCalls).toHaveLength(1);

  await resetSandboxFaults(profile);
  await expect(page.getByTestId("transaction-row").first()).toBeVisible({ timeout: 60_000 });
  await expect(banner).toBeHidden();
  await expect(pageAlerts(page)).toHaveCount(0);
  // The retry came from the countdown, not from the user: one more call (two if it landed a moment early).
  expect(listCalls.length).toBeGreaterThanOrEqual(2);
  expect(listCalls.length).toBeLessThanOrEqual(3);
});

test("an upstream that is down shows a calm message with Try again, which recovers once it is back", async ({
  loggedInPage: page,
  profile,
}) => {
  test.setTimeout(90_000);
  await setSandboxFaults(profile, { errorRate: 1 });
  await page.goto("/transactions?status=failed&limit=25&page=2");
  const notice = pageAlerts(page).filter({ hasText: "Temporarily unavailable" });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toContainText("not answering");
  await expect(notice).not.toContainText(/stack|Error:|at \S+:\d+/);

  await resetSandboxFaults(profile);
  await notice.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("transaction-row").first()).toBeVisible({ timeout: 30_000 });
  await expect(pageAlerts(page)).toHaveCount(0);
});

test("a key without the transactions scope is told the list is out of its reach and which scope it lacks", async ({
  page,
  appOrigin,
  demoKeys,
  profile,
}) => {
  await signInThroughApi(page.request, appOrigin, demoKeys["demo-no-transactions"]);
  await page.goto("/transactions");
  const notice = pageAlerts(page).filter({ hasText: "Your API key cannot see transactions" });
  await expect(notice).toBeVisible();
  // The primary shape names the scope "read"; the alternative names "transactions".
  await expect(notice).toContainText(profile === "primary" ? "lacks the read scope" : "lacks the transactions scope");
  // Asking again would not help, so no button suggests it.
  await expect(notice.getByRole("button")).toHaveCount(0);
  await expect(page.getByTestId("transaction-row")).toHaveCount(0);
});

test("a slow export shows its progress (rows, total, time left, the budget) and Cancel stops it without a file", async ({
  loggedInPage: page,
  profile,
}) => {
  test.setTimeout(90_000);
  const total = await bffTotal(page, "");
  expect(total).toBeGreaterThan(2000);
  await page.goto("/transactions");
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expectLoaded(page);

  // 300 ms per upstream page: the export of every row takes a while, as it would at the real request budget.
  await setSandboxFaults(profile, { latencyMs: 300 });
  let downloads = 0;
  page.on("download", () => {
    downloads += 1;
  });
  await page.getByRole("button", { name: "Export CSV" }).click();
  const progress = page.getByTestId("export-progress");
  await expect(progress).toBeVisible();
  const bar = progress.getByRole("progressbar", { name: "Exporting CSV" });
  await expect(bar).toBeVisible();
  const totalText = total.toLocaleString("en-US");
  await expect(progress).toContainText(new RegExp(`[\\d,]+ of ${totalText} rows`), { timeout: 20_000 });
  await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(progress).toContainText(/left/);
  await expect(progress).toContainText("request budget");
  // Focus is on Cancel while the export runs, so Enter stops it.
  await expect(progress.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(page.getByText("Export cancelled.")).toBeVisible();
  await expect(progress).toBeHidden();
  expect(downloads).toBe(0);
  await expect(pageAlerts(page)).toHaveCount(0);
});

test("a fourth export while three of the session run is refused with the BFF's own message, not as the upstream's budget", async ({
  loggedInPage: page,
  profile,
}) => {
  test.setTimeout(90_000);
  await page.goto("/transactions?status=pending");
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expectLoaded(page);
  // 10 s per upstream page: three exports of this session (the page's own cookie) stay running, each holding a slot.
  await setSandboxFaults(profile, { latencyMs: 10_000 });
  const running = [1, 2, 3].map((i) =>
    page.request
      .get(`/api/transactions/export?format=csv&status=pending&exportId=held-export-${String(i)}`, { timeout: 80_000 })
      .catch(() => null),
  );
  await page.waitForTimeout(1000); // the three requests reach the BFF (it answers nothing until their first page)
  await page.getByRole("button", { name: "Export CSV" }).click();
  const alert = pageAlerts(page).filter({ hasText: "Export not started" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("You already have 3 exports running");
  await expect(alert).not.toContainText("request budget");
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeEnabled();
  await resetSandboxFaults(profile);
  // The three held ones were real exports, and complete once the upstream is quick again.
  expect((await Promise.all(running)).map((response) => response?.status())).toEqual([200, 200, 200]);
});

test("an export that the upstream cannot serve ends in an alert that says so", async ({
  loggedInPage: page,
  profile,
}) => {
  test.setTimeout(90_000);
  await page.goto("/transactions?status=pending");
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expectLoaded(page);
  await setSandboxFaults(profile, { errorRate: 1 });
  await page.getByRole("button", { name: "Export Excel" }).click();
  const alert = pageAlerts(page).filter({ hasText: /not answering/ });
  await expect(alert).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("export-progress")).toBeHidden();
  // The buttons are usable again for another try.
  await expect(page.getByRole("button", { name: "Export Excel" })).toBeEnabled();
});

test("exporting every transaction (tens of thousands of rows) completes with the whole set and no error shown", async ({
  loggedInPage: page,
}) => {
  test.setTimeout(120_000);
  const total = await bffTotal(page, "");
  expect(total).toBeGreaterThan(10_000);
  await page.goto("/transactions");
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expectLoaded(page);
  const downloadPromise = page.waitForEvent("download", { timeout: 110_000 });
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloadPromise;
  const path = await download.path();
  const text = (await readFile(path)).toString("utf8");
  // First line: the header; then one line per row (no field of these rows holds a line break).
  const lines = text.split("\r\n").filter((line) => line !== "");
  expect(lines.length - 1).toBe(total);
  await expect(page.getByText(`Exported ${total.toLocaleString("en-US")} rows`)).toBeVisible({ timeout: 20_000 });
  await expect(pageAlerts(page)).toHaveCount(0);
});

test.describe("sign-in failures each get their own message", () => {
  async function signInThroughForm(page: Page, pair: { keyId: string; secret: string }): Promise<void> {
    await page.goto("/login");
    await page.getByLabel("Key ID", { exact: true }).fill(pair.keyId);
    await page.getByLabel("Secret", { exact: true }).fill(pair.secret);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  test("a revoked key", async ({ page, demoKeys }) => {
    await signInThroughForm(page, demoKeys["demo-revoked"]);
    await expect(pageAlerts(page)).toContainText(/wrong, or the key was revoked/);
    await expect(page).toHaveURL((url) => url.pathname === "/login");
  });

  test("a key whose allow-list lacks this server's address", async ({ page, demoKeys, profile }) => {
    test.skip(profile === "primary", "the primary description has no allow-list rule");
    await signInThroughForm(page, demoKeys["demo-allowlist"]);
    await expect(pageAlerts(page)).toContainText(
      /refused this key from this server's address: its allow-list must include the dashboard server/,
    );
    await expect(pageAlerts(page)).not.toContainText(/revoked/);
  });

  test("an upstream that is down", async ({ page, demoKeys, profile }) => {
    test.setTimeout(60_000);
    await setSandboxFaults(profile, { errorRate: 1 });
    await signInThroughForm(page, demoKeys["demo-full"]);
    await expect(pageAlerts(page)).toContainText(/not answering/, { timeout: 45_000 });
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  });

  test("a rate-limited upstream, with the seconds to wait", async ({ page, profile }) => {
    await setSandboxFaults(profile, { rateLimitSeconds: 45 });
    // A fresh key: the BFF pauses the key a 429 was for.
    await signInThroughForm(page, createSandboxKey(profile));
    await expect(pageAlerts(page)).toContainText(/wait 4\d s/);
  });
});
