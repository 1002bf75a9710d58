/**
 * Part 9: the fleet mirror (issue 15's figures) — backfill rows/min against the bound 200 × budget × ¾ at 60 and 120
 * a minute, warm queries over 1,000,000 mirrored rows on SQLite and PostgreSQL, and the mirror's size per 1,000,000
 * rows (bench:mirror's measurements, bench/standalone/bench-mirror-measure.ts); then, live in the built app
 * (./mirror-live), the upstream requests of one open page in the steady state and of a sign-in to the overview with
 * the mirror warm. Smoke sizes only check that they run.
 */
import { mkdirSync } from "node:fs";

import type { BenchContext } from "../lib/context";
import { benchBackfill, benchQueries, DIR, type Reporter } from "../standalone/bench-mirror-measure";
import { runMirrorLivePart } from "./mirror-live";

const SIZES = {
  default: { backfillRows: 60_000, queryRows: 1_000_000, windowSeconds: 6 },
  smoke: { backfillRows: 2_000, queryRows: 5_000, windowSeconds: 2 },
};

export async function runMirrorPart(ctx: BenchContext): Promise<void> {
  const size = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  mkdirSync(DIR, { recursive: true });
  const reporter: Reporter = {
    figure: (f) => {
      ctx.add({ part: "mirror", name: f.name, value: f.value, unit: f.unit, goal: f.goal, note: f.note });
    },
    log: (line) => {
      console.log(`[bench] mirror: ${line}`);
    },
  };
  for (const budget of [60, 120]) await benchBackfill(reporter, budget, size.windowSeconds, size.backfillRows);
  await benchQueries(reporter, size.queryRows, ctx.options.reseed);
  await runMirrorLivePart(ctx);
}
