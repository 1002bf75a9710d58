/**
 * npm run bench [-- PART… --smoke --long --reseed --out PATH]
 *
 * Measures the whole product and writes `bench/report.md` and `bench/report.json` (`--out` changes the path without
 * extension; `--smoke` writes `bench/report-smoke.*`): every figure with its value, goal, verdict and the command
 * that reproduces it. PART is any of sandbox, overhead, economy, export, pages, map, a11y, headers, mirror,
 * insights-exceptions, insights-jurisdictions, insights-drilldowns, insights-savings, cluster-budget, cluster, concurrency (default: all).
 * Builds the app when needed; starts the sandbox and the app on free loopback ports; stops everything it started at
 * the end, on a failure and on Ctrl-C. A part whose Debian package (redis-server, PostgreSQL, Chromium) is missing and
 * cannot be installed (apt, as root) is skipped with a "not measured" row naming it (bench/lib/tools.ts). Exits non-zero only when the bench itself broke (a part threw), never
 * because a goal was missed: the report says that.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

import { calibrate } from "./lib/calibration";
import { BenchContext, type Part } from "./lib/context";
import { stopAll, stopAllOnSignals } from "./lib/processes";
import { PART_NAMES, type PartError, type PartName, renderMarkdown, type Report, summarize } from "./lib/report";
import { partTimeLimitMs, withTimeLimit } from "./lib/time-limit";
import { missingToolsOfPart } from "./lib/tools";
import { runA11yPart } from "./parts/a11y";
import { runClusterPart } from "./parts/cluster";
import { runClusterBudgetPart } from "./parts/cluster-budget";
import { runConcurrencyPart } from "./parts/concurrency";
import { runEconomyPart } from "./parts/economy";
import { runExportPart } from "./parts/export";
import { runHeadersPart } from "./parts/headers";
import { runInsightsDrilldownsPart } from "./parts/insights-drilldowns";
import { runInsightsExceptionsPart } from "./parts/insights-exceptions";
import { runInsightsJurisdictionsPart } from "./parts/insights-jurisdictions";
import { runInsightsSavingsPart } from "./parts/insights-savings";
import { runMapPart } from "./parts/map";
import { runMirrorPart } from "./parts/mirror";
import { runOverheadPart } from "./parts/overhead";
import { runPagesPart } from "./parts/pages";
import { runSandboxPart } from "./parts/sandbox";

const PARTS: Readonly<Record<PartName, Part>> = {
  sandbox: runSandboxPart,
  overhead: runOverheadPart,
  economy: runEconomyPart,
  export: runExportPart,
  pages: runPagesPart,
  map: runMapPart,
  a11y: runA11yPart,
  headers: runHeadersPart,
  mirror: runMirrorPart,
  "insights-exceptions": runInsightsExceptionsPart,
  "insights-jurisdictions": runInsightsJurisdictionsPart,
  "insights-drilldowns": runInsightsDrilldownsPart,
  "insights-savings": runInsightsSavingsPart,
  "cluster-budget": runClusterBudgetPart,
  cluster: runClusterPart,
  concurrency: runConcurrencyPart,
};

const USAGE = `npm run bench [-- PART… --smoke --long --reseed --out PATH]
PART: ${PART_NAMES.join(", ")} (default: all, in this order)
--smoke   tiny sizes, one Lighthouse run, short load runs: checks the bench itself (under two minutes)
--long    long variants: export at the real 60 s budget window, longer load runs
--reseed  seed the cached sandbox databases under .data/ anew
--out     report path without extension (default bench/report, or bench/report-smoke with --smoke)`;

const isPartName = (name: string): name is PartName => (PART_NAMES as readonly string[]).includes(name);

function machine(calibrationMs: number): Report["machine"] {
  const cpus = os.cpus();
  return {
    calibrationMs,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown CPU",
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      long: { type: "boolean", default: false },
      reseed: { type: "boolean", default: false },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const unknown = positionals.filter((p) => !isPartName(p));
  if (unknown.length > 0) {
    console.error(`unknown part(s): ${unknown.join(", ")}\n\n${USAGE}`);
    return 2;
  }
  const parts = positionals.length === 0 ? [...PART_NAMES] : PART_NAMES.filter((p) => positionals.includes(p));
  const out = values.out ?? (values.smoke ? "bench/report-smoke" : "bench/report");
  const ctx = new BenchContext({ smoke: values.smoke, long: values.long, reseed: values.reseed });
  stopAllOnSignals();

  const startedAt = new Date();
  // The host's speed in this run, before any part loads it: every time in the report is also said as a multiple of it.
  const calibrationMs = calibrate();
  ctx.calibrationMs = calibrationMs;
  console.log(`[bench] CPU calibration: ${calibrationMs.toFixed(1)} ms (bench/lib/calibration.ts)`);
  const errors: PartError[] = [];
  const secondsByPart: Report["secondsByPart"] = {};
  try {
    for (const part of parts) {
      const started = performance.now();
      console.log(`[bench] ${part}…`);
      const missing = missingToolsOfPart(part);
      if (missing !== null) {
        console.error(`[bench] the ${part} part is not measured: ${missing}`);
        ctx.notMeasured({ part, name: `The ${part} part`, reason: missing });
        continue;
      }
      try {
        const limitMs = partTimeLimitMs({ smoke: values.smoke, long: values.long });
        await (limitMs === null ? PARTS[part](ctx) : withTimeLimit(PARTS[part](ctx), limitMs, `the ${part} part`));
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        console.error(`[bench] the ${part} part failed: ${message}`);
        errors.push({ part, message: (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "" });
      }
      secondsByPart[part] = (performance.now() - started) / 1000;
      console.log(`[bench] ${part} done in ${(secondsByPart[part] ?? 0).toFixed(0)} s`);
    }
  } finally {
    await stopAll();
  }

  const report: Report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(calibrationMs),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    smoke: values.smoke,
    long: values.long,
    parts,
    secondsByPart,
    figures: ctx.figures,
    errors,
  };
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(`${out}.md`, renderMarkdown(report));
  writeFileSync(`${out}.json`, `${JSON.stringify(report, null, 2)}\n`);
  const counts = summarize(report.figures);
  console.log(
    `[bench] wrote ${out}.md and ${out}.json: ${String(counts.pass)} pass, ${String(counts.fail)} fail, ${String(counts["not-measured"])} not measured, ${String(counts.info)} info; bench errors: ${String(errors.length)}`,
  );
  return errors.length === 0 ? 0 : 1;
}

// A stray rejection or exception (e.g. a child's unheard "error" event) must not end the run without stopping what it
// started.
process.on("unhandledRejection", (reason) => {
  console.error("[bench] unhandled rejection:", reason);
  void stopAll().finally(() => process.exit(1));
});
process.on("uncaughtException", (error) => {
  console.error("[bench] uncaught exception:", error);
  void stopAll().finally(() => process.exit(1));
});

// An explicit exit: a part abandoned at its time limit may still hold timers, which must not keep the run alive.
process.exit(
  await main().catch(async (error: unknown) => {
    console.error(error);
    await stopAll();
    return 1;
  }),
);
