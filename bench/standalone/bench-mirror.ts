/**
 * npm run bench:mirror [-- --part backfill|queries|all] [--rows 1000000] [--window-seconds 6] [--backfill-rows 60000] [--fresh]
 *
 * 1. Backfill rate: the mirror's sync backfills the demo customer from a sandbox process at budgets 60 and 120 per
 *    minute, with both sides' budget window shortened (default 6 s = 10× the real rate, as the export bench does); the
 *    rate is scaled back to real time and compared with the bound 200 rows × budget × ¾ (the sync never takes the
 *    reserved quarter). Upstream requests are counted by the sandbox (--control's request log).
 * 2. Warm queries over N mirrored rows (default 1,000,000, generated straight into the store over 24 months) on
 *    SQLite and on a PostgreSQL server started in a temporary directory: a 12-month summary, a state × product
 *    grouping of one quarter, a page filtered by driver + state sorted by amount. p50/p95 of 20 runs after 3 warm-ups.
 *    And the mirror's size per 1,000,000 rows (SQLite file; PostgreSQL pg_total_relation_size of the mirror tables).
 * Prints figures with their goal and verdict; asserts nothing.
 */
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";

import { benchBackfill, benchQueries, DIR, type MirrorFigure, type Reporter } from "./bench-mirror-measure";

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    rows: { type: "string", default: "1000000" },
    "window-seconds": { type: "string", default: "6" },
    "backfill-rows": { type: "string", default: "60000" },
    fresh: { type: "boolean", default: false },
  },
});

/** One line per figure: value, goal and verdict (pass / FAIL / info), like the bench's report. */
function printFigure(f: MirrorFigure): void {
  const met = f.goal === null ? null : f.goal.op === "<=" ? f.value <= f.goal.target : f.value >= f.goal.target;
  const shown = f.value >= 100 ? Math.round(f.value).toLocaleString("en-US") : f.value.toFixed(1);
  const verdict =
    f.goal === null ? "info" : `goal ${f.goal.op} ${f.goal.target.toLocaleString("en-US")} · ${met ? "pass" : "FAIL"}`;
  console.log(`[bench:mirror] ${f.name}: ${shown} ${f.unit} · ${verdict} (${f.note})`);
}

const printer: Reporter = {
  figure: printFigure,
  log: (line) => {
    console.log(`[bench:mirror] ${line}`);
  },
};

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const part = values.part;
  if (part === "all" || part === "backfill") {
    for (const budget of [60, 120])
      await benchBackfill(printer, budget, Number(values["window-seconds"]), Number(values["backfill-rows"]));
  }
  if (part === "all" || part === "queries") await benchQueries(printer, Number(values.rows), values.fresh);
}

main().catch((error: unknown) => {
  console.error("[bench:mirror] failed:", error);
  process.exitCode = 1;
});
