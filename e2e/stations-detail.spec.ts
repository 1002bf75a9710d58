// The stations journey, loading and the detail page (issue 13): the catalog's wait while an export holds the request
// budget, a station's detail with its purchases, and an unknown station's 404.
import type { Page } from "@playwright/test";

import { type DemoKey, expect, sameOriginHeaders, sessionCookieOf, test } from "./fixtures";
import { startOwnStack } from "./own-stack";
import { type Profile, serversOf } from "./profiles";
import { sandboxCatalog, sandboxToken } from "./sandbox-stations";
import { map } from "./stations-page";

test("while an export of the same key holds the request budget, the catalog's progress says so, then the map loads", async ({
  page,
  profile,
}) => {
  test.setTimeout(180_000);
  // Its own sandbox and app with a small budget (10 requests per 6 s): the shared ones have a budget no test reaches.
  const stack = await startOwnStack(profile, 10, 6);
  const exportAbort = new AbortController();
  try {
    const signIn = await page.request.post(`${stack.origin}/api/session`, {
      data: stack.key,
      headers: sameOriginHeaders(stack.origin),
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    const cookie = (await sessionCookieOf(page)).header;
    // The export, read as fast as it comes (as a browser saving the file does), until the test ends.
    const exportResponse = await fetch(`${stack.origin}/api/transactions/export?format=csv`, {
      headers: { Cookie: cookie },
      signal: exportAbort.signal,
    });
    expect(exportResponse.status).toBe(200);
    const reader = exportResponse.body?.getReader();
    void (async () => {
      try {
        for (;;) if ((await reader?.read())?.done !== false) return;
      } catch {
        // aborted at the end of the test
      }
    })();
    await page.goto(`${stack.origin}/stations`);
    await expect(page.getByTestId("catalog-budget-wait")).toContainText(
      "Waiting for the request budget: an export of your transactions is running with the same API key",
      { timeout: 60_000 },
    );
    await expect(page.getByTestId("catalog-budget-wait")).toContainText("allows 10 requests per 6 seconds");
    await expect(map(page)).toHaveAttribute("data-drawn-count", /^\d+$/, { timeout: 120_000 });
    await expect(page.getByTestId("catalog-budget-wait")).toHaveCount(0);
  } finally {
    exportAbort.abort();
    await stack.stop();
  }
});

/** Every transaction of the key's customer, newest first, from the sandbox itself. */
async function sandboxTransactions(
  page: Page,
  profile: Profile,
  key: DemoKey,
  query: Record<string, string> = {},
  maxPages = Number.POSITIVE_INFINITY,
): Promise<SandboxTransaction[]> {
  const base = `http://127.0.0.1:${String(serversOf(profile).sandboxPort)}/api/v1`;
  const token = await sandboxToken(page, profile, key);
  const all: SandboxTransaction[] = [];
  for (let p = 1; p <= maxPages; p++) {
    const params = new URLSearchParams({ ...query, page: String(p), limit: "200" });
    const response = await page.request.get(`${base}/transactions?${params.toString()}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: { pages: number; items: SandboxTransaction[] } };
    all.push(...body.data.items);
    if (p >= body.data.pages) break;
  }
  return all;
}

interface SandboxTransaction {
  id: string;
  transaction_at: string;
  status: string;
  product: string;
  gallons: number | string;
  amount: number | string;
  station: { id: string; name: string };
  def: { gallons: number | string; amount: number | string } | null;
}

/** Σ amount ÷ Σ gallons to 3 decimals, half away from zero, in integers (as the page must). */
function averagePrice(rows: readonly { amount: number | string; gallons: number | string }[]): string {
  const cents = rows.reduce((n, r) => n + BigInt(Math.round(Number(r.amount) * 100)), 0n);
  const milli = rows.reduce((n, r) => n + BigInt(Math.round(Number(r.gallons) * 1000)), 0n);
  const thousandths = (2n * cents * 10_000n + milli) / (2n * milli);
  return `$${(Number(thousandths) / 1000).toFixed(3)}`;
}

test("a station's detail: the latest 20 of its purchases, the year on last year's dates, an average price per product", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  test.setTimeout(90_000);
  const key = demoKeys["demo-full"];
  const all = await sandboxTransactions(page, profile, key);
  const thisYear = new Date().getFullYear();
  const byStation = new Map<string, SandboxTransaction[]>();
  for (const t of all) byStation.set(t.station.id, [...(byStation.get(t.station.id) ?? []), t]);
  // A station with more purchases than the page lists, of two products, whose latest 20 reach into last year.
  const pick = [...byStation.values()].find(
    (rows) =>
      rows.length > 20 &&
      new Set(rows.map((r) => r.product)).size > 1 &&
      new Date(rows[19]?.transaction_at ?? 0).getFullYear() < thisYear,
  );
  if (pick === undefined) throw new Error("no station fits the test in the sandbox's data");
  const station = pick[0]?.station;
  if (station === undefined) throw new Error("no station");
  // The page's own source: the newest 200 transactions that mention the station's name, of this station.
  const items = (await sandboxTransactions(page, profile, key, { search: station.name }, 1)).filter(
    (t) => t.station.id === station.id,
  );
  expect(items.length).toBeGreaterThan(20);

  const response = await page.goto(`/stations/${station.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("station-transactions-count")).toHaveText(
    `The latest 20 of ${String(items.length)} purchases.`,
  );
  const rows = page.getByTestId("station-transaction-row");
  await expect(rows).toHaveCount(20);
  const whenTexts = await rows.locator("td:first-child a").allTextContents();
  items.slice(0, 20).forEach((t, i) => {
    const year = new Date(t.transaction_at).getFullYear();
    expect(
      whenTexts[i]?.includes(String(year)),
      `row ${String(i + 1)} (${t.transaction_at}) reads “${whenTexts[i] ?? ""}”`,
    ).toBe(year !== thisYear);
  });
  // Each row's status in words in a column of its own (not glued to the time: "3:00 PM CST(failed)").
  const statusWords: Record<string, string> = { completed: "Completed", pending: "Pending", failed: "Failed" };
  expect(await rows.locator("td:nth-child(2)").allTextContents()).toEqual(
    items.slice(0, 20).map((t) => statusWords[t.status] ?? t.status),
  );
  expect(whenTexts.filter((text) => text.includes("("))).toEqual([]);
  const spend = items.filter((t) => t.status !== "failed");
  const expected = new Map<string, { amount: number | string; gallons: number | string }[]>();
  for (const t of spend) {
    expected.set(t.product, [...(expected.get(t.product) ?? []), t]);
    if (t.def !== null && Number(t.def.gallons) > 0) expected.set("def", [...(expected.get("def") ?? []), t.def]);
  }
  const names: Record<string, string> = { diesel: "Diesel", unleaded: "Unleaded", def: "DEF" };
  const averages = page.getByTestId("average-paid-product");
  await expect(averages).toHaveCount(expected.size);
  for (const [product, rowsOf] of expected) {
    await expect(averages.filter({ hasText: `${names[product] ?? product}:` })).toHaveText(
      `${names[product] ?? product}: ${averagePrice(rowsOf)} per gallon over ${String(rowsOf.length)} ${rowsOf.length === 1 ? "purchase" : "purchases"}`,
    );
  }
});

test("an unknown station answers HTTP 404 with the not-found page", async ({
  loggedInPage: page,
  profile,
  demoKeys,
}) => {
  const [known] = await sandboxCatalog(page, profile, demoKeys["demo-full"]);
  if (known === undefined) throw new Error("empty catalog");
  for (const id of ["00000000-0000-4000-8000-000000000000", "not a station"]) {
    const response = await page.goto(`/stations/${encodeURIComponent(id)}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    // Inside the dashboard's shell, whose <main> it is in: one main landmark, not one in another.
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Stations" })).toBeVisible();
  }
  const ok = await page.goto(`/stations/${known.id}`);
  expect(ok?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: known.name, level: 1 })).toBeVisible();
});
