/**
 * The pages part's Lighthouse figures of the insight pages (issue 16: each ≥ 95 desktop performance, accessibility
 * 100), the drill-downs' detail pages (a driver's, a truck's, a card's) and a station's page (issue 26: every page):
 * an app of its own with the mirror on (the shared app runs without it, so the other parts count no sync), signed
 * in, the mirror ready, then the same presets and figures as the other pages (./pages-lighthouse).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { signIn, startBenchApp } from "../lib/app";
import { APP_UNLIMITED_BUDGET, type BenchContext } from "../lib/context";
import { waitReady } from "./mirror-live";
import { type LighthousePage, measureLighthouse } from "./pages-lighthouse";

const INSIGHT_PAGES = ["/reports/jurisdictions", "/drivers", "/trucks", "/cards", "/exceptions"];

export async function measureInsightPages(ctx: BenchContext, runs: number): Promise<void> {
  const { sandbox } = await ctx.shared();
  const dir = mkdtempSync(join(tmpdir(), "ffd-bench-insights-"));
  const app = await startBenchApp(sandbox.baseUrl, {
    FLEET_API_BUDGET: APP_UNLIMITED_BUDGET,
    MIRROR_ENABLED: "true",
    MIRROR_PATH: join(dir, "mirror.db"),
  });
  try {
    const session = await signIn(app.origin, sandbox.key);
    const state = await waitReady(app, session);
    if (state !== "ready") {
      for (const path of INSIGHT_PAGES)
        ctx.notMeasured({
          part: "pages",
          name: `${path}: Lighthouse`,
          reason: `the mirror said "${state}", not "ready", after 5 minutes`,
          note: "",
        });
      return;
    }
    const firstOf = async (
      api: string,
      pick: (body: Record<string, unknown>) => unknown,
    ): Promise<string | undefined> => {
      const body = (await (
        await fetch(`${app.origin}${api}`, { headers: { Cookie: session.cookie } })
      ).json()) as Record<string, unknown>;
      const value = pick(body);
      return typeof value === "string" ? value : undefined;
    };
    const firstKey = (body: Record<string, unknown>) => (body.rows as { key?: unknown }[] | undefined)?.[0]?.key;
    const firstId = (body: Record<string, unknown>) => (body.items as { id?: unknown }[] | undefined)?.[0]?.id;
    const details: [string, string | undefined][] = [
      ["/drivers/[id]", await firstOf("/api/drivers", firstKey)],
      ["/trucks/[id]", await firstOf("/api/trucks", firstKey)],
      ["/cards/[last4]", await firstOf("/api/cards", firstKey)],
      ["/stations/[id]", await firstOf("/api/locations?limit=1", firstId)],
    ];
    const pages: LighthousePage[] = ctx.options.smoke
      ? [{ path: "/exceptions", name: "/exceptions" }]
      : [
          ...INSIGHT_PAGES.map((path) => ({ path, name: path })),
          ...details.flatMap(([name, key]) =>
            key === undefined ? [] : [{ path: name.replace(/\[\w+\]$/, encodeURIComponent(key)), name }],
          ),
        ];
    await measureLighthouse(ctx, { origin: app.origin, cookie: session.cookie, runs, mapPresent: true, pages });
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
