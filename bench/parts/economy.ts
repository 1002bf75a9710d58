/**
 * Part 3: upstream requests per user journey, counted from the sandbox's own request log (`[sandbox] GET /api/v1/…`),
 * against the minimum each journey needs. A fresh app (empty caches) on the demo sandbox; Chromium drives the pages.
 */
import type { Page } from "@playwright/test";

import { startBenchApp } from "../lib/app";
import { signedInContext, waitSettled } from "../lib/browser";
import type { BenchContext } from "../lib/context";
import { APP_UNLIMITED_BUDGET } from "../lib/context";
import { bearerToken, type Sandbox } from "../lib/sandbox";

const WALK_PAGE_SIZE = 200;
const CATALOG_PAGE_SIZE = 500;
/** GET /api/locations/products reads one station detail (once an hour per key) to learn which products it prices. */
const PRODUCT_PROBE_REQUESTS = 1;
const DAYS_IN_SUMMARY = 30;
/** How long to wait for the map to appear on /stations (the smoke run only checks the path). */
const MAP_WAIT_MS = { full: 15_000, smoke: 5_000 };
const LOG_QUIET_MS = 500;

type Step = () => Promise<string[]>;

/** The data the minimums depend on: transactions in the last 30 days (the summary's walk) and stations (the catalog). */
async function journeyData(sandbox: Sandbox): Promise<{ last30: number; stations: number; walkPages: number }> {
  const direct = { Authorization: `Bearer ${await bearerToken(sandbox.baseUrl, sandbox.key)}` };
  const today = new Date();
  const from = new Date(today.getTime() - (DAYS_IN_SUMMARY - 1) * 86_400_000).toISOString().slice(0, 10);
  const totalOf = async (query: string) =>
    ((await (await fetch(`${sandbox.baseUrl}${query}`, { headers: direct })).json()) as { data: { total: number } })
      .data.total;
  const last30 = await totalOf(`/transactions?from=${from}&to=${today.toISOString().slice(0, 10)}&limit=1`);
  const stations = await totalOf("/locations?limit=1");
  return { last30, stations, walkPages: Math.ceil(last30 / WALK_PAGE_SIZE) };
}

/** A function that returns the upstream requests the sandbox logged since its last call. */
function requestSteps(sandbox: Sandbox): Step {
  let mark = sandbox.requestCount();
  // The sandbox logs a request after answering it, through a pipe: wait until its count stops moving.
  return async () => {
    for (let last = -1; last !== sandbox.requestCount();) {
      last = sandbox.requestCount();
      await new Promise((r) => setTimeout(r, LOG_QUIET_MS));
    }
    const lines = sandbox.requestLines(mark);
    mark += lines.length;
    return lines;
  };
}

function summarizeLines(lines: string[]): string {
  const byPath = new Map<string, number>();
  for (const line of lines) {
    const p = /\/api\/v1(\/[^?\s]*)/.exec(line)?.[1] ?? "?";
    byPath.set(p, (byPath.get(p) ?? 0) + 1);
  }
  return [...byPath].map(([p, n]) => `${String(n)}× ${p}`).join(", ") || "none";
}

export async function runEconomyPart(ctx: BenchContext): Promise<void> {
  const { sandbox } = await ctx.shared();
  // The minimums depend on the data: the 30-day walk's pages and the catalog's pages.
  const data = await journeyData(sandbox);
  const app = await startBenchApp(sandbox.baseUrl, { FLEET_API_BUDGET: APP_UNLIMITED_BUDGET });
  const browser = await ctx.browser();
  const step = requestSteps(sandbox);
  const context = await signedInContext(browser, app.origin, sandbox.key);
  try {
    const login = await step();
    const page = await context.newPage();
    await measureOverview(ctx, page, step, login, data);
    await measureTable(ctx, page, step);
    await measureMapOpen(ctx, page, step, data.stations);
  } finally {
    await context.close();
    await app.stop();
  }
}

/** Login + the overview's first load, against the minimum; then the overview again within the cache TTL. */
async function measureOverview(
  ctx: BenchContext,
  page: Page,
  step: Step,
  login: string[],
  data: { last30: number; walkPages: number },
): Promise<void> {
  const { last30, walkPages } = data;
  await page.goto("/");
  await waitSettled(page);
  const overview = await step();
  const loginAndOverviewMin = 2 + walkPages;
  ctx.add({
    part: "economy",
    name: "login",
    value: login.length,
    unit: "requests",
    note: `${summarizeLines(login)}; POST /api/session (checks the pair, reads the customer's name)`,
  });
  ctx.add({
    part: "economy",
    name: "overview (first load)",
    value: overview.length,
    unit: "requests",
    note: `${summarizeLines(overview)}; account, 30-day summary, latest 10`,
  });
  ctx.add({
    part: "economy",
    name: "login + overview",
    value: login.length + overview.length,
    unit: "requests",
    goal: { op: "<=", target: loginAndOverviewMin },
    note: `minimum ${String(loginAndOverviewMin)} = POST /auth + GET /account-details + ⌈${String(last30)} transactions in the last 30 days / ${String(WALK_PAGE_SIZE)}⌉ = ${String(walkPages)} pages (the latest 10 are the first rows of that walk)`,
  });

  await page.goto("/");
  await waitSettled(page);
  const reload = await step();
  ctx.add({
    part: "economy",
    name: "overview again within the cache TTL",
    value: reload.length,
    unit: "requests",
    goal: { op: "<=", target: 0 },
    note: `${summarizeLines(reload)}; minimum 0 (every answer is still cached: account 30 s, summary 60 s, pages 20 s; measured right after the first load)`,
  });
}

/** Opening the transactions table, then its next page: one upstream page each at most. */
async function measureTable(ctx: BenchContext, page: Page, step: Step): Promise<void> {
  await page.goto("/transactions");
  await waitSettled(page);
  const table = await step();
  ctx.add({
    part: "economy",
    name: "transactions table (open)",
    value: table.length,
    unit: "requests",
    goal: { op: "<=", target: 1 },
    note: `${summarizeLines(table)}; minimum 1 (one page)`,
  });

  await page.getByRole("button", { name: "Next page" }).click();
  await waitSettled(page);
  const pageChange = await step();
  ctx.add({
    part: "economy",
    name: "table page change",
    value: pageChange.length,
    unit: "requests",
    goal: { op: "<=", target: 1 },
    note: `${summarizeLines(pageChange)}; minimum 1 (the next page)`,
  });
}

/** Opening /stations: the catalog's pages and one station detail at most (not measured without the map). */
async function measureMapOpen(ctx: BenchContext, page: Page, step: Step, stations: number): Promise<void> {
  await page.goto("/stations");
  await waitSettled(page);
  const hasMap = await page
    .locator('[data-testid="station-map"]')
    .waitFor({ timeout: ctx.options.smoke ? MAP_WAIT_MS.smoke : MAP_WAIT_MS.full })
    .then(
      () => true,
      () => false,
    );
  if (hasMap) await waitSettled(page);
  const map = await step();
  // The catalog's pages, plus one station detail: the page learns whether the detail prices several products (the
  // product filter), once an hour per key.
  const mapMin = Math.ceil(stations / CATALOG_PAGE_SIZE) + PRODUCT_PROBE_REQUESTS;
  if (hasMap) {
    ctx.add({
      part: "economy",
      name: "map open",
      value: map.length,
      unit: "requests",
      goal: { op: "<=", target: mapMin },
      note: `${summarizeLines(map)}; minimum ⌈${String(stations)} stations / ${String(CATALOG_PAGE_SIZE)}⌉ + ${String(PRODUCT_PROBE_REQUESTS)} station detail (which products the detail prices) = ${String(mapMin)}`,
    });
  } else {
    ctx.notMeasured({
      part: "economy",
      name: "map open",
      unit: "requests",
      goal: { op: "<=", target: mapMin },
      reason: `/stations has no map (no [data-testid="station-map"]); ${String(map.length)} upstream requests on opening it`,
      note: "",
    });
  }
}
