/**
 * The pages part's Lighthouse figures: desktop and mobile presets for /login, /, /transactions and /stations; scores,
 * LCP, TBT, CLS and JavaScript transferred, each the median of the runs.
 */
import type { BenchContext } from "../lib/context";
import { launchLighthouse, type LighthouseResult, type Preset } from "../lib/lighthouse";
import { type Goal, median } from "../lib/report";

const KB = 1000;
/** Issue 5 (desktop, /login, / and /transactions) and issue 6 (/stations); JavaScript ≤ 200 kB gzip on every page. */
const DESKTOP_PERFORMANCE_GOAL: Readonly<Record<string, number>> = {
  "/login": 95,
  "/": 95,
  "/transactions": 95,
  "/stations": 90,
};
const SCRIPT_KB_GOAL = 200;
/** Core Web Vitals' "good" thresholds (web.dev), for LCP, TBT (the lab stand-in for INP) and CLS. */
const LCP_GOAL_MS = 2_500;
const TBT_GOAL_MS = 200;
const CLS_GOAL = 0.1;

export interface LighthouseTarget {
  origin: string;
  /** The signed-in session's Cookie header value, for every page but /login. */
  cookie: string;
  runs: number;
  /** Whether /stations has the map; without it /stations is reported as not measured. */
  mapPresent: boolean;
  /** The pages to measure; default /login, /, /transactions, /stations (fewer in a smoke run). */
  paths?: readonly string[];
}

/** Runs Lighthouse over every page and preset (fewer in a smoke run) and adds their figures. */
export async function measureLighthouse(ctx: BenchContext, target: LighthouseTarget): Promise<void> {
  const lighthouse = await launchLighthouse();
  const presets: Preset[] = ["desktop", "mobile"];
  // The smoke run proves the path (both presets, a signed-out and a signed-in page), not the figures.
  const pages = target.paths ?? (ctx.options.smoke ? ["/login", "/"] : ["/login", "/", "/transactions", "/stations"]);
  for (const preset of presets) {
    for (const path of pages) {
      if (ctx.options.smoke && preset === "mobile" && path !== "/login") continue;
      if (path === "/stations" && !target.mapPresent) {
        ctx.notMeasured({
          part: "pages",
          name: `${path} ${preset}: Lighthouse`,
          reason: '/stations has no map yet (no [data-testid="station-map"]): the placeholder is not measured',
          note: "",
        });
        continue;
      }
      const results: LighthouseResult[] = [];
      // Signed out, /login is what a visitor gets; the other pages need the session cookie.
      const headers: Record<string, string> = path === "/login" ? {} : { Cookie: target.cookie };
      for (let i = 0; i < target.runs; i++) results.push(await lighthouse.run(target.origin + path, preset, headers));
      addLighthouseFigures(ctx, path, preset, results);
    }
  }
}

/** The figures of one page and preset from its runs: scores, LCP, TBT, CLS; JavaScript transferred on desktop. */
function addLighthouseFigures(ctx: BenchContext, path: string, preset: Preset, results: LighthouseResult[]): void {
  const label = `${path} ${preset}`;
  const runs = results.length;
  const how = `Lighthouse 12 ${preset} preset, median of ${String(runs)} run${runs === 1 ? "" : "s"}, Debian Chromium headless`;
  const med = (pick: (r: LighthouseResult) => number) => median(results.map(pick));
  const isDesktop = preset === "desktop";
  const goal = (g: Goal): Goal | null => (isDesktop ? g : null);
  const perfGoal = DESKTOP_PERFORMANCE_GOAL[path] ?? 95;
  ctx.add({
    part: "pages",
    name: `${label}: performance`,
    value: med((r) => r.performance),
    goal: goal({ op: ">=", target: perfGoal }),
    note: `${how}; runs: ${results.map((r) => r.performance).join(", ")}${isDesktop ? "" : "; no goal set for mobile"}`,
  });
  ctx.add({
    part: "pages",
    name: `${label}: accessibility`,
    value: med((r) => r.accessibility),
    goal: goal({ op: ">=", target: 100 }),
    note: how,
  });
  ctx.add({
    part: "pages",
    name: `${label}: best practices`,
    value: med((r) => r.bestPractices),
    goal: goal({ op: ">=", target: 100 }),
    note: how,
  });
  ctx.add({
    part: "pages",
    name: `${label}: LCP`,
    value: Math.round(med((r) => r.lcpMs)),
    unit: "ms",
    goal: { op: "<=", target: LCP_GOAL_MS },
    note: `${how}; goal: Core Web Vitals "good"`,
  });
  ctx.add({
    part: "pages",
    name: `${label}: TBT`,
    value: Math.round(med((r) => r.tbtMs)),
    unit: "ms",
    goal: { op: "<=", target: TBT_GOAL_MS },
    note: `${how}; goal: Lighthouse's "good" TBT`,
  });
  ctx.add({
    part: "pages",
    name: `${label}: CLS`,
    value: Number(med((r) => r.cls).toFixed(3)),
    goal: { op: "<=", target: CLS_GOAL },
    note: `${how}; goal: Core Web Vitals "good"`,
  });
  if (isDesktop) {
    ctx.add({
      part: "pages",
      name: `${path}: JavaScript transferred`,
      value: Math.round(med((r) => r.scriptBytes) / KB),
      unit: "kB",
      goal: { op: "<=", target: SCRIPT_KB_GOAL },
      note: `${how}; scripts' transfer size (compressed) from the resource-summary audit`,
    });
  }
}
