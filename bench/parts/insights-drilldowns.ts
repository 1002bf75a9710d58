/**
 * Part: the drill-downs (issue 16 item 2) over the mirror's 1,000,000-row bench data (bench/standalone/
 * bench-mirror-data.ts; the SQLite file part 9 keeps is reused): p50/p95 of the ranked query (every driver, every
 * truck) and of one key's detail (a driver, a station: totals, trend per local day, breakdown) over 30 local days, a
 * quarter and 366 days, on SQLite and PostgreSQL; and every read one reply waits for (./insights-drilldowns-reads.ts:
 * a list, a key's page, the overview summary with both periods) over 30, 90 and 366 days. Smoke size only checks that
 * they run.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import { sql } from "kysely";

import { detailFigures, MirrorStore, rankedFigures } from "@/lib/mirror";

import type { BenchContext } from "../lib/context";
import { startBenchPostgres } from "../lib/services";
import { fill } from "../standalone/bench-mirror-data";
import { DIR, type Reporter, time } from "../standalone/bench-mirror-measure";
import { detailReads, listReads, summaryReads } from "./insights-drilldowns-reads";

const SIZES = { default: 1_000_000, smoke: 5_000 };
/** The bench data ends here (bench-mirror-measure's queries use the same end). */
const END_MS = Date.parse("2026-11-01T00:00:00Z");
const DAYS_30 = { from: "2026-09-25", to: "2026-10-24" };
const QUARTER = { from: "2026-07-01", to: "2026-09-30" };
const YEAR = { from: "2025-10-31", to: "2026-10-31" };
/** What a reply of each kind reads, per period length (30, 90 and 366 days: issue 25 item 7). */
const PERIODS = [
  ["30", DAYS_30],
  ["90", { from: "2026-07-27", to: "2026-10-24" }],
  ["366", YEAR],
] as const;

export async function runInsightsDrilldownsPart(ctx: BenchContext): Promise<void> {
  const rows = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  mkdirSync(DIR, { recursive: true });
  const r: Reporter = {
    figure: (f) => {
      ctx.add({ part: "insights-drilldowns", name: f.name, value: f.value, unit: f.unit, goal: f.goal, note: f.note });
    },
    log: (line) => {
      console.log(`[bench] insights-drilldowns: ${line}`);
    },
  };
  const pg = await startBenchPostgres();
  try {
    for (const kind of ["sqlite", "postgres"] as const) {
      const store =
        kind === "sqlite"
          ? await MirrorStore.open({ path: join(DIR, `queries-${String(rows)}.db`) })
          : await MirrorStore.open({ databaseUrl: await pg.createDatabase("bench_drilldowns") });
      try {
        if ((await store.extent("BENCH")).rows !== rows) {
          await store.purge("BENCH");
          await fill(store, rows, END_MS);
          await sql`ANALYZE`.execute(store.db);
        }
        r.log(`${kind}: ${rows.toLocaleString("en-US")} rows ready`);
        await time(r, "drill-down: drivers ranked, 30 local days", store, () =>
          rankedFigures(store, "BENCH", "driver", DAYS_30),
        );
        await time(r, "drill-down: trucks ranked, one quarter", store, () =>
          rankedFigures(store, "BENCH", "truck", QUARTER),
        );
        await time(r, "drill-down: one driver's detail, one quarter", store, () =>
          detailFigures(store, "BENCH", "driver", "dr-17", QUARTER),
        );
        await time(r, "drill-down: one station's detail, 30 local days", store, () =>
          detailFigures(store, "BENCH", "station", "st-17", DAYS_30),
        );
        await time(r, "drill-down: drivers ranked, 366 local days", store, () =>
          rankedFigures(store, "BENCH", "driver", YEAR),
        );
        await time(r, "drill-down: one driver's detail, 366 local days", store, () =>
          detailFigures(store, "BENCH", "driver", "dr-17", YEAR),
        );
        for (const [days, range] of PERIODS) {
          await time(r, `reply: /api/drivers list, ${days} local days`, store, () => listReads(store, "driver", range));
          await time(r, `reply: a driver's page, ${days} local days`, store, () =>
            detailReads(store, "driver", "dr-17", range),
          );
          await time(r, `reply: overview summary, ${days} days`, store, () => summaryReads(store, range));
        }
      } finally {
        await store.close();
      }
    }
  } finally {
    await pg.stop();
  }
}
