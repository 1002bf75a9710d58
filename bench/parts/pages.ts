/**
 * Part 5: the pages. Lighthouse 12 (desktop and mobile presets, median of 5 runs) for every page — /login, /,
 * /transactions and a transaction, /stations and its route planner view here; the insight pages, the drill-downs'
 * detail pages and a station's page with the mirror on (./pages-insights) — scores, LCP, TBT, CLS and JavaScript
 * loaded, the map's lazy chunk apart (./pages-lighthouse); whether Leaflet loads outside
 * /stations; and the time from a status-filter change on /transactions to the new rows in the DOM after the BFF's
 * answer (./pages-filter, issue 5).
 */
import type { Page, Response } from "@playwright/test";

import { signedInContext, waitSettled } from "../lib/browser";
import type { BenchContext } from "../lib/context";
import { withTimeLimit } from "../lib/time-limit";
import { measureFilterToRows, RESPONSE_TIMEOUT_MS } from "./pages-filter";
import { measureInsightPages } from "./pages-insights";
import { type LighthousePage, measureLighthouse, ROUTE_PLANNER } from "./pages-lighthouse";

const RUNS = { default: 5, long: 5, smoke: 1 };
const MAP_WAIT_MS = { default: 15_000, long: 15_000, smoke: 5_000 };
const FILTER_RANGES = {
  default: ["all", "30d", "this-quarter", "7d"],
  long: ["all", "30d", "this-quarter", "7d"],
  smoke: ["all"],
};
/** What identifies Leaflet in a script or stylesheet: its CSS class prefix, present in both its JS and its CSS. */
const LEAFLET_MARK = "leaflet-container";

type Size = "default" | "long" | "smoke";

/** Whether /stations has the map (the contract of issue 6: `[data-testid="station-map"]`). */
async function hasStationMap(page: Page, timeoutMs: number): Promise<boolean> {
  await page.goto("/stations");
  return page
    .locator('[data-testid="station-map"]')
    .waitFor({ timeout: timeoutMs })
    .then(
      () => true,
      () => false,
    );
}

export async function runPagesPart(ctx: BenchContext): Promise<void> {
  const size: Size = ctx.options.smoke ? "smoke" : ctx.options.long ? "long" : "default";
  const { sandbox, app, session } = await ctx.shared();
  const browser = await ctx.browser();
  const context = await signedInContext(browser, app.origin, sandbox.key);
  let mapPresent = false;
  try {
    const page = await context.newPage();
    mapPresent = await hasStationMap(page, MAP_WAIT_MS[size]);
    await measureLeafletIsolation(ctx, page, mapPresent);
    // A broken filter measurement is reported as not measured there; the Lighthouse runs below still happen.
    await measureFilterToRows(ctx, page, FILTER_RANGES[size]);
  } finally {
    await context.close();
  }
  const first = (
    (await (await fetch(`${app.origin}/api/transactions?limit=1`, { headers: { Cookie: session.cookie } })).json()) as {
      items?: { id: string }[];
    }
  ).items?.[0]?.id;
  const pages: LighthousePage[] = ctx.options.smoke
    ? [page("/login"), page("/")]
    : [
        page("/login"),
        page("/"),
        page("/transactions"),
        ...(first === undefined
          ? []
          : [{ path: `/transactions/${encodeURIComponent(first)}`, name: "/transactions/[id]" }]),
        page("/stations"),
        ROUTE_PLANNER,
      ];
  await measureLighthouse(ctx, { origin: app.origin, cookie: session.cookie, runs: RUNS[size], mapPresent, pages });
  await measureInsightPages(ctx, RUNS[size]);
}

function page(path: string): LighthousePage {
  return { path, name: path };
}

/** Leaflet must load on /stations only: `window.L` stays undefined elsewhere and no script or stylesheet carries it. */
async function measureLeafletIsolation(ctx: BenchContext, page: Page, mapPresent: boolean): Promise<void> {
  for (const path of ["/login", "/", "/transactions"]) {
    const leafletUrls: string[] = [];
    const bodies: Promise<void>[] = [];
    const onResponse = (response: Response) => {
      const type = response.request().resourceType();
      if (type !== "script" && type !== "stylesheet") return;
      if (/leaflet/i.test(response.url())) leafletUrls.push(response.url());
      bodies.push(
        response.text().then(
          (text) => {
            if (text.includes(LEAFLET_MARK)) leafletUrls.push(response.url());
          },
          () => undefined,
        ),
      );
    };
    page.on("response", onResponse);
    await page.goto(path);
    await waitSettled(page);
    // A body that cannot be read in time is judged by its URL and window.L only (a stuck read must not hang the run).
    await withTimeLimit(
      Promise.all(bodies),
      RESPONSE_TIMEOUT_MS,
      `reading the scripts and stylesheets of ${path}`,
    ).catch(() => undefined);
    page.off("response", onResponse);
    const hasGlobal = await page.evaluate(() => (window as unknown as { L?: unknown }).L !== undefined);
    const loaded = hasGlobal || leafletUrls.length > 0;
    ctx.add({
      part: "pages",
      name: `${path}: Leaflet not loaded`,
      value: loaded ? "loaded" : "not loaded",
      goal: { op: "==", target: "not loaded" },
      note: `Playwright: window.L ${hasGlobal ? "defined" : "undefined"} after load and network idle; scripts/stylesheets naming or containing "${LEAFLET_MARK}": ${leafletUrls.length === 0 ? "none" : [...new Set(leafletUrls)].join(" ")}${mapPresent ? "" : " (note: /stations has no map yet, so Leaflet is not used anywhere in this build)"}`,
    });
  }
}
