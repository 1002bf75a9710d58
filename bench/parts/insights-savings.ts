/**
 * Part: savings (issue 16 item 4) — the computation of GET /api/savings (the catalog and its price history read from
 * the mirror, then the completed fills of the range and of the previous period compared with it) over the
 * 1,000,000-row mirror bench:mirror builds (bench/standalone/bench-mirror-data.ts), for 30, 90 and 366 days, on
 * SQLite and PostgreSQL. The catalog: 2,500 stations (the rows' station ids) about 4 within 10 miles of each other, recorded by
 * walks 60 and 20 days before the rows end (a third of the prices changed in the second) and at their end (no change),
 * so the prices observed around each fill (PRICE_WINDOW_HOURS, 24 h) differ before and after the change and fills
 * before the first walk are "not compared". Smoke size only checks that it runs.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

import { sql } from "kysely";

import { savingsFor } from "@/lib/insights/savings-query";
import { comparisonsState, refreshComparisons } from "@/lib/insights/savings-stored";
import { storedSavingsFor } from "@/lib/insights/savings-stored-read";
import { MirrorStore, readCatalog, recordCatalogWalk } from "@/lib/mirror";
import { fromMinorUnits, type LocalDateRange, type Station } from "@/lib/model";

import type { BenchContext } from "../lib/context";
import { percentile } from "../lib/report";
import { startBenchPostgres } from "../lib/services";
import { fill, STATES } from "../standalone/bench-mirror-data";
import { DIR } from "../standalone/bench-mirror-measure";

const SIZES = { default: 1_000_000, smoke: 5_000 };
const STATIONS = 2_500;
const PARAMS = { radiusMiles: 10, windowMs: 24 * 3_600_000 };
const DAY_MS = 86_400_000;
/** The rows' last instant (bench:mirror's). */
const END_MS = Date.parse("2026-11-01T00:00:00Z");
const GOAL_MS = { sqlite: 100, postgres: 150 } as const;

/** A deterministic catalog over the bench rows' station ids, in a 5° × 10° box (about 4 stations per 10 miles). */
function catalogAt(walkMs: number, changed: boolean): Station[] {
  let seed = 2026;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return Array.from({ length: STATIONS }, (_, i) => {
    const lat = 35 + next() * 5;
    const lng = -100 + next() * 10;
    const base = 3_200 + Math.floor(next() * 1_200);
    const price = changed && i % 3 === 0 ? base - 40 : base;
    return {
      id: `st-${String(i)}`,
      locNum: String(i),
      name: `Station ${String(i)}`,
      brand: "bench",
      address: `${String(i)} Main St`,
      city: `City ${String(i % 300)}`,
      state: STATES[i % STATES.length] ?? "TX",
      lat,
      lng,
      price: fromMinorUnits(BigInt(price), 3),
      priceUpdatedAt: new Date(walkMs - 3_600_000).toISOString(),
    };
  });
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const rangeOf = (days: number): LocalDateRange => ({ from: dayOf(END_MS - days * DAY_MS), to: dayOf(END_MS - DAY_MS) });
const previousOf = (days: number): LocalDateRange => ({
  from: dayOf(END_MS - 2 * days * DAY_MS),
  to: dayOf(END_MS - (days + 1) * DAY_MS),
});

/**
 * The stored comparisons (lib/insights/savings-stored): computing every fill pending since the rows were written
 * (once; after a sync or a walk only the fills it touched), for information. The app does this in the background
 * loop (lib/bff/sync/comparisons: batches of 2,000 judged in the worker pool); here the same batches run inline.
 */
async function firstRefresh(ctx: BenchContext, kind: string, store: MirrorStore): Promise<void> {
  const refreshStarted = performance.now();
  const computed = await refreshComparisons(store, "BENCH", PARAMS);
  ctx.add({
    part: "insights-savings",
    name: `${kind}: stored comparisons, first computation of every pending fill`,
    value: performance.now() - refreshStarted,
    unit: "ms",
    goal: null,
    note: `${computed.toLocaleString("en-US")} fills computed and stored (a mirror's one-time cost after the migration)`,
  });
}

export async function runInsightsSavingsPart(ctx: BenchContext): Promise<void> {
  const rows = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  mkdirSync(DIR, { recursive: true });
  const sqlitePath = join(DIR, `queries-${String(rows)}.db`);
  const pg = await startBenchPostgres();
  try {
    for (const kind of ["sqlite", "postgres"] as const) {
      if (kind === "sqlite" && ctx.options.reseed)
        for (const suffix of ["", "-wal", "-shm"]) rmSync(sqlitePath + suffix, { force: true });
      const store =
        kind === "sqlite"
          ? await MirrorStore.open({ path: sqlitePath })
          : await MirrorStore.open({ databaseUrl: await pg.createDatabase("bench_savings") });
      try {
        if ((await store.extent("BENCH")).rows !== rows) {
          await store.purge("BENCH");
          await fill(store, rows, END_MS);
        }
        await recordCatalogWalk(store, "BENCH", catalogAt(END_MS - 60 * DAY_MS, false), END_MS - 60 * DAY_MS);
        await recordCatalogWalk(store, "BENCH", catalogAt(END_MS - 20 * DAY_MS, true), END_MS - 20 * DAY_MS);
        await recordCatalogWalk(store, "BENCH", catalogAt(END_MS - 20 * DAY_MS, true), END_MS);
        await firstRefresh(ctx, kind, store);
        await sql`ANALYZE`.execute(store.db);
        for (const days of [30, 90, 366]) {
          const run = async () => {
            // As the route: where the comparisons stand (nothing pending here), then both periods' sums.
            const state = await comparisonsState(store, "BENCH", PARAMS);
            if (state.pending !== 0) throw new Error(`${String(state.pending)} fills still pending`);
            const current = await storedSavingsFor(store, "BENCH", rangeOf(days), {});
            await storedSavingsFor(store, "BENCH", previousOf(days), {}, { top: false });
            return current.figures;
          };
          const figures = await run();
          if (ctx.options.smoke || days === 30) {
            // The stored figures are savingsFor's (checked once here as well as in the stored-savings test).
            const catalog = await readCatalog(store, "BENCH");
            const direct = await savingsFor(store, "BENCH", rangeOf(days), {}, catalog, PARAMS);
            if (JSON.stringify(direct.figures) !== JSON.stringify(figures))
              throw new Error(
                `stored savings differ from savingsFor over ${String(days)} days: ${JSON.stringify(direct.figures)} vs ${JSON.stringify(figures)}`,
              );
          }
          for (let i = 0; i < 2; i++) await run();
          const ms: number[] = [];
          const started = performance.now();
          for (let i = 0; i < 20 && (i < 5 || performance.now() - started < 60_000); i++) {
            const t = performance.now();
            await run();
            ms.push(performance.now() - t);
          }
          const note = `${String(ms.length)} warm runs after 3 warm-ups (each: the comparisons' state read (nothing pending), both periods' sums and top 10); ${rows.toLocaleString("en-US")} rows, ${String(figures.fills)} of ${String(figures.considered)} completed fills compared in the period (${String(figures.notCompared.noObservation.fills)} with no price observed within 24 h), plus the previous period`;
          ctx.add({
            part: "insights-savings",
            name: `${kind}: GET /api/savings computation (stored), ${String(days)} days, p50`,
            value: percentile(ms, 50),
            unit: "ms",
            goal: null,
            note,
          });
          ctx.add({
            part: "insights-savings",
            name: `${kind}: GET /api/savings computation (stored), ${String(days)} days, p95`,
            value: percentile(ms, 95),
            unit: "ms",
            goal: { op: "<=", target: GOAL_MS[kind] },
            note,
          });
        }
      } finally {
        await store.close();
      }
    }
  } finally {
    await pg.stop();
  }
}
