/**
 * Part 6: the stations map (issue 6's contract: `[data-testid="station-map"]` with `data-drawn-count` after each
 * draw, and a `performance.measure("ffd:map-draw", {detail: {count}})` per draw). Main-thread time to draw 2,500 and
 * 50,000 stations, and the longest task while panning (a PerformanceObserver for long tasks, Chromium). When /stations
 * has no map, every figure is reported as not measured. First, the route planner's computation over the same catalog
 * sizes (map-route.ts; no browser needed).
 */
import type { Locator, Page } from "@playwright/test";

import { startBenchApp } from "../lib/app";
import { signedInContext } from "../lib/browser";
import type { BenchContext } from "../lib/context";
import { APP_UNLIMITED_BUDGET } from "../lib/context";
import type { Goal } from "../lib/report";
import { seededDatabase, startSandbox, UNLIMITED_BUDGET } from "../lib/sandbox";
import { measureRoutePlanner } from "./map-route";

const CASES = { default: [2_500, 50_000], long: [2_500, 50_000], smoke: [2_500] };
const DRAW_GOAL_MS: Readonly<Record<number, number>> = { 2_500: 300, 50_000: 1_500 };
const LONG_TASK_GOAL_MS = 50;
const MAP_APPEAR_MS = { default: 15_000, long: 15_000, smoke: 5_000 };
const MAP_DRAWN_MS = 60_000;
const PAN_STEPS = 12;
const PAN_PIXELS = 120;

declare global {
  interface Window {
    __ffdLongTasks?: { start: number; duration: number }[];
  }
}

type Size = keyof typeof CASES;

interface Case {
  stations: number;
  label: string;
  drawGoal: Goal;
  panGoal: Goal;
}

export async function runMapPart(ctx: BenchContext): Promise<void> {
  const size: Size = ctx.options.smoke ? "smoke" : ctx.options.long ? "long" : "default";
  measureRoutePlanner(ctx);
  let noMap: string | null = null;
  for (const stations of CASES[size]) {
    const one: Case = {
      stations,
      label: `${stations.toLocaleString("en-US")} stations`,
      drawGoal: { op: "<=", target: DRAW_GOAL_MS[stations] ?? 1_500 },
      panGoal: { op: "<=", target: LONG_TASK_GOAL_MS },
    };
    // No map on the demo catalog: a bigger one (seeding, another sandbox and app) cannot have one either.
    if (noMap !== null) notMeasuredCase(ctx, one, noMap);
    else noMap = await measureCase(ctx, one, size);
  }
}

/** Both figures of a case as not measured, for `reason`. */
function notMeasuredCase(ctx: BenchContext, one: Case, reason: string): void {
  ctx.notMeasured({
    part: "map",
    name: `${one.label}: draw (main thread)`,
    unit: "ms",
    goal: one.drawGoal,
    reason,
    note: "",
  });
  ctx.notMeasured({
    part: "map",
    name: `${one.label}: longest task while panning`,
    unit: "ms",
    goal: one.panGoal,
    reason,
    note: "",
  });
}

/** One catalog size on its own sandbox and app (the shared ones for the demo's 2,500); returns why /stations has no map. */
async function measureCase(ctx: BenchContext, one: Case, size: Size): Promise<string | null> {
  // 2,500 is the demo data; a bigger catalog gets its own cached database (seeded directly, so the CLI's cap on
  // --stations does not apply).
  const stack = one.stations === 2_500 ? await ctx.shared() : null;
  const sandbox =
    stack?.sandbox ??
    (await startSandbox({
      db: seededDatabase({ stations: one.stations }, ctx.options.reseed),
      args: ["--budget", String(UNLIMITED_BUDGET)],
    }));
  const app = stack?.app ?? (await startBenchApp(sandbox.baseUrl, { FLEET_API_BUDGET: APP_UNLIMITED_BUDGET }));
  const context = await signedInContext(await ctx.browser(), app.origin, sandbox.key);
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__ffdLongTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.__ffdLongTasks?.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto("/stations");
    const map = page.locator('[data-testid="station-map"]');
    if (!(await waitForDrawn(page, map, one.stations, size))) {
      const hasContainer = (await map.count()) > 0;
      const reason = hasContainer
        ? `the map did not report ${one.label} drawn (data-drawn-count)`
        : '/stations has no map (no [data-testid="station-map"])';
      notMeasuredCase(ctx, one, reason);
      return hasContainer ? null : reason;
    }
    await addDrawFigure(ctx, page, one);
    await measurePanning(ctx, page, map, one);
    await measureRouteInPage(ctx, page, one);
    return null;
  } finally {
    await context.close();
    if (!stack) {
      await app.stop();
      await sandbox.stop();
    }
  }
}

/** Whether the map appeared and reported (nearly) all `stations` drawn in time. */
async function waitForDrawn(page: Page, map: Locator, stations: number, size: Size): Promise<boolean> {
  // The container shows up quickly when the page has a map at all; drawing a big catalog may take longer.
  return map.waitFor({ timeout: MAP_APPEAR_MS[size] }).then(
    () =>
      page
        .waitForFunction(
          (n) =>
            Number(document.querySelector('[data-testid="station-map"]')?.getAttribute("data-drawn-count") ?? -1) >=
            n * 0.99,
          stations,
          { timeout: MAP_DRAWN_MS },
        )
        .then(
          () => true,
          () => false,
        ),
    () => false,
  );
}

/** The draw's main-thread time from the page's own `ffd:map-draw` measure of the full catalog (else the last one). */
async function addDrawFigure(ctx: BenchContext, page: Page, one: Case): Promise<void> {
  const draws = await page.evaluate(() =>
    performance.getEntriesByName("ffd:map-draw").map((e) => {
      const detail: unknown = (e as PerformanceMeasure).detail;
      const count = typeof detail === "object" && detail !== null && "count" in detail ? Number(detail.count) : -1;
      return { duration: e.duration, count };
    }),
  );
  const draw = draws.filter((d) => d.count >= one.stations * 0.99).at(-1) ?? draws.at(-1);
  if (draw) {
    ctx.add({
      part: "map",
      name: `${one.label}: draw (main thread)`,
      value: Math.round(draw.duration),
      unit: "ms",
      goal: one.drawGoal,
      note: `performance.measure "ffd:map-draw" (catalog data available → markers drawn), count ${String(draw.count)}; Playwright, Debian Chromium headless`,
    });
  } else {
    ctx.notMeasured({
      part: "map",
      name: `${one.label}: draw (main thread)`,
      unit: "ms",
      goal: one.drawGoal,
      reason: 'no performance.measure "ffd:map-draw" entry',
      note: "",
    });
  }
}

/** The I-40 route of map-route.ts (Los Angeles → Albuquerque → Oklahoma City → Little Rock, ≈ 1,480 miles) as a URL. */
const ROUTE_URL =
  "/stations?mode=route&from=34.0522,-118.2437&fromPlace=Los+Angeles&via=35.0844,-106.6504|35.4676,-97.5164" +
  "&viaPlace=Albuquerque|Oklahoma+City&to=34.7465,-92.2896&toPlace=Little+Rock";
const ROUTE_GOAL_MS: Readonly<Record<number, number>> = { 2_500: 50, 50_000: 300 };

/**
 * Issue 18's figure in the browser: the Route mode's corridor + ranking + plan over the catalog, from the page's own
 * `performance.measure("ffd:route-plan")` (components/stations/route-planner/route-data.ts) after opening the route by its URL.
 */
async function measureRouteInPage(ctx: BenchContext, page: Page, one: Case): Promise<void> {
  const name = `${one.label}: route plan in the page (corridor + ranking + plan)`;
  const goal: Goal = { op: "<=", target: ROUTE_GOAL_MS[one.stations] ?? 300 };
  await page.goto(ROUTE_URL);
  const measured = await page
    .waitForFunction(
      (n) =>
        performance
          .getEntriesByName("ffd:route-plan")
          .some(
            (e) => Number(((e as PerformanceMeasure).detail as { stations?: number } | null)?.stations) >= n * 0.99,
          ),
      one.stations,
      { timeout: MAP_DRAWN_MS },
    )
    .then(
      () => true,
      () => false,
    );
  if (!measured) {
    ctx.notMeasured({
      part: "map",
      name,
      unit: "ms",
      goal,
      reason: 'no "ffd:route-plan" measure of the full catalog',
      note: "",
    });
    return;
  }
  const entry = await page.evaluate((n) => {
    const all = performance
      .getEntriesByName("ffd:route-plan")
      .map((e) => ({
        ms: e.duration,
        detail: (e as PerformanceMeasure).detail as { stations: number; candidates: number },
      }))
      .filter((e) => e.detail.stations >= n * 0.99);
    return all.at(-1) ?? null;
  }, one.stations);
  if (entry === null) return;
  ctx.add({
    part: "map",
    name,
    value: Math.round(entry.ms * 10) / 10,
    unit: "ms",
    goal,
    note: `performance.measure "ffd:route-plan" of the Route mode over ${String(entry.detail.stations)} stations, ${String(entry.detail.candidates)} corridor candidates (diesel); Playwright, Debian Chromium headless`,
  });
}

/** The longest task while the mouse drags the map back and forth. */
async function measurePanning(ctx: BenchContext, page: Page, map: Locator, one: Case): Promise<void> {
  const box = await map.boundingBox();
  if (!box) throw new Error("the map has no box to pan");
  const panStart = await page.evaluate(() => performance.now());
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < PAN_STEPS; i++) {
    const dx = (i % 2 === 0 ? 1 : -1) * PAN_PIXELS;
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dx / 2, { steps: 10 });
    await page.mouse.up();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  }
  await page.waitForTimeout(500);
  const longest = await page.evaluate(
    (since) => Math.max(0, ...(window.__ffdLongTasks ?? []).filter((t) => t.start >= since).map((t) => t.duration)),
    panStart,
  );
  ctx.add({
    part: "map",
    name: `${one.label}: longest task while panning`,
    value: Math.round(longest),
    unit: "ms",
    goal: one.panGoal,
    note: `${String(PAN_STEPS)} mouse drags of ${String(PAN_PIXELS)} px; PerformanceObserver "longtask" (reports tasks > 50 ms only, so 0 = none over 50 ms)`,
  });
}
