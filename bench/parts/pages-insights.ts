/**
 * The pages part's Lighthouse figures of the insight pages (issue 16: each ≥ 95 desktop performance, accessibility
 * 100): an app of its own with the mirror on (the shared app runs without it, so the other parts count no sync), signed
 * in, the mirror ready, then the same presets and figures as the other pages (./pages-lighthouse).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { signIn, startBenchApp } from "../lib/app";
import { APP_UNLIMITED_BUDGET, type BenchContext } from "../lib/context";
import { waitReady } from "./mirror-live";
import { measureLighthouse } from "./pages-lighthouse";

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
    const drivers = (await (
      await fetch(`${app.origin}/api/drivers`, { headers: { Cookie: session.cookie } })
    ).json()) as { rows?: { key: string }[] };
    const first = drivers.rows?.[0]?.key;
    const paths = ctx.options.smoke
      ? ["/exceptions"]
      : [...INSIGHT_PAGES, ...(first === undefined ? [] : [`/drivers/${encodeURIComponent(first)}`])];
    await measureLighthouse(ctx, { origin: app.origin, cookie: session.cookie, runs, mapPresent: true, paths });
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
