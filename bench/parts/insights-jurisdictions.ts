/**
 * Part: fuel by jurisdiction (issue 16 item 1's figures) — the p95 of the quarter's report query (state × fuel on
 * purchase-local dates, lib/mirror/jurisdictions, read from the local-day rollup of lib/mirror/local-rollups) over 1,000,000 mirrored rows on SQLite and PostgreSQL (bench:mirror's
 * generated rows, the same store file the mirror part keeps), and the time to export a quarter of 250,000 completed
 * purchases as XLSX (Summary + Detail + About, lib/bff/insights/jurisdiction-export) read to the end. Smoke sizes
 * only check that it runs.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

import { sql } from "kysely";

import { jurisdictionFile, receiptsOf } from "@/lib/bff/insights/jurisdiction-export";
import { jurisdictionReport, MirrorStore, rebuildLocalBlocks, rebuildLocalRollups, toRow } from "@/lib/mirror";
import type { Transaction } from "@/lib/model";
import type { JurisdictionReply } from "@/lib/model/insight-jurisdictions";

import type { BenchContext } from "../lib/context";
import { startBenchPostgres } from "../lib/services";
import { fill, STATES } from "../standalone/bench-mirror-data";
import { DIR } from "../standalone/bench-mirror-measure";

const SIZES = {
  default: { queryRows: 1_000_000, exportRows: 250_000 },
  smoke: { queryRows: 5_000, exportRows: 2_000 },
};
const QUARTER = { from: "2026-07-01", to: "2026-09-30" };
const END_MS = Date.parse("2026-11-01T00:00:00Z");

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

/** A quarter of completed purchases (offsets of the continental zones), for the export. */
function* quarterRows(count: number): Generator<Transaction> {
  const from = Date.parse(`${QUARTER.from}T12:00:00Z`);
  const span = Date.parse(`${QUARTER.to}T12:00:00Z`) - from;
  for (let i = 0; i < count; i++) {
    const station = (i * 7919) % 2500;
    const gallons = 20_000 + ((i * 104_729) % 180_000);
    const price = 3_200 + ((i * 131) % 1_200);
    yield {
      id: `q-${String(i).padStart(8, "0")}`,
      reference: `FQ${String(i).padStart(10, "0")}`,
      at: new Date(from + Math.floor((i / count) * span)).toISOString(),
      localOffsetMinutes: -300 - 60 * (i % 4),
      status: "completed",
      product: i % 5 === 0 ? "unleaded" : "diesel",
      gallons: (gallons / 1000).toFixed(3),
      pricePerGallon: (price / 1000).toFixed(3),
      amount: (Math.round((gallons * price) / 10_000) / 100).toFixed(2),
      station: {
        id: `st-${String(station)}`,
        name: `Station ${String(station)}`,
        locNum: String(station),
        city: `City ${String(station % 300)}`,
        state: STATES[station % STATES.length] ?? "TX",
      },
      driver: { id: `dr-${String(i % 200)}`, name: `Driver ${String(i % 200)}`, truckId: `T${String(i % 200)}` },
      card: { last4: String(1000 + (i % 9000)) },
      def: i % 3 === 0 ? { gallons: "5.000", amount: "17.50", category: "bulk" } : null,
    };
  }
}

async function fillQuarter(store: MirrorStore, count: number): Promise<void> {
  const batch: ReturnType<typeof toRow>[] = [];
  const flush = async () => {
    const chunk = batch.splice(0);
    await store.transaction(async (trx) => {
      for (let i = 0; i < chunk.length; i += 1000)
        await trx
          .insertInto("mirror_transactions")
          .values(chunk.slice(i, i + 1000))
          .execute();
    });
  };
  for (const t of quarterRows(count)) {
    batch.push(toRow("EXPORT", t, END_MS));
    if (batch.length >= 50_000) await flush();
  }
  if (batch.length > 0) await flush();
}

export async function runInsightsJurisdictionsPart(ctx: BenchContext): Promise<void> {
  const size = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  const log = (line: string) => {
    console.log(`[bench] insights-jurisdictions: ${line}`);
  };
  mkdirSync(DIR, { recursive: true });
  const pg = await startBenchPostgres();
  try {
    for (const kind of ["sqlite", "postgres"] as const) {
      const sqlitePath = join(DIR, `queries-${String(size.queryRows)}.db`);
      const store =
        kind === "sqlite"
          ? await MirrorStore.open({ path: sqlitePath })
          : await MirrorStore.open({ databaseUrl: await pg.createDatabase("bench_jurisdictions") });
      try {
        if ((await store.extent("BENCH")).rows !== size.queryRows) {
          await store.purge("BENCH");
          await fill(store, size.queryRows, END_MS);
          await sql`ANALYZE`.execute(store.db);
        }
        const ms: number[] = [];
        for (let i = 0; i < 3; i++) await jurisdictionReport(store, "BENCH", QUARTER);
        const started = performance.now();
        const cpu0 = process.cpuUsage();
        let report = await jurisdictionReport(store, "BENCH", QUARTER);
        for (let i = 0; i < 20 && (i < 5 || performance.now() - started < 60_000); i++) {
          const t = performance.now();
          report = await jurisdictionReport(store, "BENCH", QUARTER);
          ms.push(performance.now() - t);
        }
        const cpu = process.cpuUsage(cpu0);
        // This process's CPU per run (SQLite runs in it; PostgreSQL's work is in its server, not counted here).
        const cpuMs = (cpu.user + cpu.system) / 1000 / (ms.length + 1);
        const note = `${String(ms.length)} warm runs after 3 warm-ups (${cpuMs.toFixed(0)} ms CPU per run in this process); ${report.totals.purchases.toLocaleString("en-US")} completed purchases in ${QUARTER.from}–${QUARTER.to} of ${size.queryRows.toLocaleString("en-US")} rows`;
        ctx.add({
          part: "insights-jurisdictions",
          name: `${kind}: jurisdiction report of a quarter (local dates), p50`,
          value: percentile(ms, 50),
          unit: "ms",
          goal: null,
          note,
        });
        ctx.add({
          part: "insights-jurisdictions",
          name: `${kind}: jurisdiction report of a quarter (local dates), p95`,
          value: percentile(ms, 95),
          unit: "ms",
          goal: { op: "<=", target: 100 },
          note,
        });
      } finally {
        await store.close();
      }
    }
  } finally {
    await pg.stop();
  }

  await benchExport(ctx, size.exportRows, log);
}

/** The XLSX export of a quarter of `exportRowCount` completed purchases, read to the end. */
async function benchExport(ctx: BenchContext, exportRowCount: number, log: (line: string) => void): Promise<void> {
  // The export: its own SQLite file of one quarter's purchases (generated once; --reseed makes it anew).
  const exportPath = join(DIR, `jurisdiction-export-${String(exportRowCount)}.db`);
  if (ctx.options.reseed) for (const s of ["", "-wal", "-shm"]) rmSync(exportPath + s, { force: true });
  const store = await MirrorStore.open({ path: exportPath });
  try {
    if ((await store.extent("EXPORT")).rows !== exportRowCount) {
      await store.purge("EXPORT");
      await fillQuarter(store, exportRowCount);
      // Bulk-written rows (no deltas): the local-day rollup the report reads is computed from them.
      await store.transaction(async (trx) => {
        await rebuildLocalRollups(trx);
        await rebuildLocalBlocks(trx);
      });
    }
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const report = await jurisdictionReport(store, "EXPORT", QUARTER);
    const reply: JurisdictionReply = {
      periods: { current: QUARTER, previous: { from: "2026-04-01", to: "2026-06-30" } },
      coverage: {
        requested: QUARTER,
        covered: QUARTER,
        complete: true,
        asOf: new Date(END_MS).toISOString(),
        note: null,
      },
      previousCoverage: { requested: QUARTER, covered: null, complete: false, asOf: null, note: null },
      report,
      previous: null,
      metric: "tax.completed.local-date",
      settling: { purchases: 0, days: 0 },
    };
    const file = jurisdictionFile("xlsx", receiptsOf(store, "EXPORT", QUARTER), {
      reply,
      customer: "Bench",
      generatedAt: new Date(END_MS),
      stations: new Map(),
      addressNote: null,
    });
    let bytes = 0;
    const reader = file.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    log(
      `xlsx of ${report.totals.purchases.toLocaleString("en-US")} purchases: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`,
    );
    ctx.add({
      part: "insights-jurisdictions",
      name: "sqlite: XLSX export of a quarter (report + receipt lines)",
      value: seconds,
      unit: "s",
      goal: { op: "<=", target: 10 },
      note: `${report.totals.purchases.toLocaleString("en-US")} completed purchases, ${(bytes / 1e6).toFixed(1)} MB, read to the end; ${cpuSeconds.toFixed(1)} s of CPU (the wall time on a quiet machine, as near as one process tells)`,
    });
  } finally {
    await store.close();
  }
}
