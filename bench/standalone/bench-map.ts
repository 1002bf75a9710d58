// npm run bench:map — the stations map's figures: main-thread time from catalog data to drawn map (the page's own
// `ffd:map-draw` measure) for 2,500 and 50,000 stations, the longest task while panning, JavaScript transferred for
// /stations, and whether Leaflet (window.L) stays off the other pages. Starts a sandbox per size (--stations N, a
// budget high enough that the 100-page catalog walk never waits), the built app, and Debian's Chromium.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { chromium, type Page } from "playwright-core";

import { type AppProcess, startApp } from "@/test/app-process";

import { type Sandbox, startSandbox } from "../lib/sandbox";

const SIZES = [2_500, 50_000] as const;
/** The highest budget the app accepts (FLEET_API_BUDGET ≤ 100,000): the 100-page walk never waits for it. */
const BUDGET = "100000";
const SESSION_SECRET = "bench-only-session-secret-0123456789abcdef";
const PAN_STEPS = 6;
const DRAWS_MEASURED = 3;

/** A sandbox of its own per size, over a fresh database in a temporary folder (removed on stop). */
async function startMapSandbox(stations: number): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), "ffd-bench-map-"));
  const db = join(dir, "sandbox.db");
  const args = ["--reset", "--stations", String(stations), "--transactions", "2000", "--budget", BUDGET];
  const sandbox = await startSandbox({ db, args });
  return {
    ...sandbox,
    stop: async () => {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function drawDurations(page: Page): Promise<{ duration: number; count: number }[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByName("ffd:map-draw")
      .map((e) => ({ duration: e.duration, count: ((e as PerformanceMeasure).detail as { count: number }).count })),
  );
}

async function waitForDraw(page: Page, count: number): Promise<void> {
  await page.waitForSelector(`[data-testid="station-map"][data-drawn-count="${String(count)}"]`, { timeout: 600_000 });
}

/** A sandbox of `stations` and the built app over it (the sandbox is stopped again when the app fails to start). */
async function startStack(stations: number): Promise<{ sandbox: Sandbox; app: AppProcess }> {
  const sandbox = await startMapSandbox(stations);
  const app = await startApp({
    FLEET_API_BASE_URL: sandbox.baseUrl,
    SESSION_SECRET,
    FLEET_API_BUDGET: BUDGET,
    LOG_LEVEL: "warn",
  }).catch(async (error: unknown) => {
    await sandbox.stop();
    throw error;
  });
  return { sandbox, app };
}

const launchChromium = () => chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });

/** The signed-in pages other than /stations on which Leaflet (window.L) is defined: none, if it stays off them. */
async function leafletElsewhere(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const path of ["/", "/transactions"]) {
    await page.goto(path, { waitUntil: "networkidle" });
    if (await page.evaluate(() => typeof (window as Window & { L?: unknown }).L !== "undefined")) found.push(path);
  }
  return found;
}

interface DrawFigures {
  draws: number[];
  jsBytes: number;
  jsFiles: number;
  catalogBytes: number;
}

/** Loads /stations DRAWS_MEASURED times: each load's first draw, and the first load's JavaScript and catalog bytes. */
async function measureDraws(page: Page, stations: number): Promise<DrawFigures> {
  const figures: DrawFigures = { draws: [], jsBytes: 0, jsFiles: 0, catalogBytes: 0 };
  for (let run = 0; run < DRAWS_MEASURED; run++) {
    await page.goto("/stations", { waitUntil: "load" });
    await waitForDraw(page, stations);
    const measured = await drawDurations(page);
    const first = measured[0];
    if (first !== undefined) figures.draws.push(first.duration);
    if (run === 0) {
      const resources = await page.evaluate(() =>
        performance.getEntriesByType("resource").map((r) => ({
          name: r.name,
          size: (r as PerformanceResourceTiming).transferSize,
          encoded: (r as PerformanceResourceTiming).encodedBodySize,
        })),
      );
      const js = resources.filter((r) => /\.js(\?|$)/.test(r.name));
      figures.jsBytes = js.reduce((sum, r) => sum + r.size, 0);
      figures.jsFiles = js.length;
      figures.catalogBytes = resources.find((r) => r.name.includes("/api/locations?all=1"))?.size ?? 0;
    }
  }
  return figures;
}

/** Panning: drag the map a few times and return every long task (> 50 ms) meanwhile, in ms. */
async function measurePanning(page: Page): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as Window & { __longTasks?: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks?.push(entry.duration);
    }).observe({ type: "longtask" });
  });
  const box = await page.getByTestId("station-map").boundingBox();
  if (box === null) throw new Error("no map box");
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (let step = 0; step < PAN_STEPS; step++) {
    const dx = step % 2 === 0 ? 200 : -150;
    const dy = step % 3 === 0 ? 80 : -60;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(cx + (dx * i) / 10, cy + (dy * i) / 10);
    await page.mouse.up();
    await page.waitForTimeout(400);
  }
  return page.evaluate(() => (window as Window & { __longTasks?: number[] }).__longTasks ?? []);
}

function printSize(
  stations: number,
  walkMs: number,
  figures: DrawFigures,
  longTasks: number[],
  leafletPages: string[],
): void {
  const { draws, jsBytes, jsFiles, catalogBytes } = figures;
  const sorted = [...draws].sort((a, b) => a - b);
  console.log(`\n== ${stations.toLocaleString("en-US")} stations ==`);
  console.log(
    `BFF catalog walk (cold, upstream pages of 500): ${String(walkMs)} ms; catalog JSON transferred: ${(catalogBytes / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `ffd:map-draw (data → drawn), ${String(draws.length)} page loads: ${draws.map((d) => d.toFixed(1)).join(", ")} ms (median ${(sorted[Math.floor(sorted.length / 2)] ?? NaN).toFixed(1)} ms)`,
  );
  console.log(
    `long tasks while panning (${String(PAN_STEPS)} drags): ${String(longTasks.length)}, longest ${longTasks.length === 0 ? "none over 50" : Math.max(...longTasks).toFixed(0)} ms`,
  );
  console.log(`JavaScript transferred on /stations: ${(jsBytes / 1024).toFixed(1)} KiB in ${String(jsFiles)} files`);
  console.log(
    `window.L on /, /transactions: ${leafletPages.length === 0 ? "undefined (Leaflet not loaded)" : `DEFINED on ${leafletPages.join(", ")}`}`,
  );
}

async function benchSize(stations: number): Promise<void> {
  const { sandbox, app } = await startStack(stations);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const login = await page.request.post("/api/session", {
      data: sandbox.key,
      headers: { "X-Requested-With": "XMLHttpRequest", Origin: app.origin },
    });
    if (login.status() !== 200) throw new Error(`login failed: ${String(login.status())} ${await login.text()}`);
    const leafletPages = await leafletElsewhere(page);
    // Warm the BFF's catalog cache (the walk's time is the upstream's, not the page's), then load the page for real.
    const warmStart = Date.now();
    await page.request.get("/api/locations?all=1", { timeout: 600_000 });
    const walkMs = Date.now() - warmStart;
    const figures = await measureDraws(page, stations);
    const longTasks = await measurePanning(page);
    printSize(stations, walkMs, figures, longTasks, leafletPages);
    await context.close();
  } finally {
    await browser.close();
    await app.stop();
    await sandbox.stop();
  }
}

// /login has no session: check it once, with a fresh browser.
async function checkLogin(): Promise<void> {
  const { sandbox, app } = await startStack(100);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${app.origin}/login`, { waitUntil: "networkidle" });
    console.log(`window.L on /login: ${await page.evaluate(() => typeof (window as Window & { L?: unknown }).L)}`);
  } finally {
    await browser.close();
    await app.stop();
    await sandbox.stop();
  }
}

for (const size of SIZES) await benchSize(size);
await checkLogin();
