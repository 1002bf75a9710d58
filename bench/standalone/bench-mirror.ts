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
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { sql } from "kysely";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import { listPage, MirrorStore, MirrorSync, stateProductTotals, summarize } from "@/lib/mirror";
import { freePort } from "@/test/net";
import { startPostgresServer } from "@/test/postgres-server";

import { demoKey, SANDBOX_CLI } from "../lib/sandbox";
import { fill, STATES } from "./bench-mirror-data";

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    rows: { type: "string", default: "1000000" },
    "window-seconds": { type: "string", default: "6" },
    "backfill-rows": { type: "string", default: "60000" },
    fresh: { type: "boolean", default: false },
  },
});
const DIR = ".data/bench-mirror";
const REAL_WINDOW_SECONDS = 60;
const PAGE = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Upstream {
  baseUrl: string;
  credentials: { keyId: string; secret: string };
  stop: () => void;
}

/** A sandbox over the cached upstream database of `rows` (seeded once), at `budget` per shortened window. */
async function startUpstream(budget: number, windowSeconds: number, rows: number): Promise<Upstream> {
  const db = join(DIR, `upstream-${String(rows)}.db`);
  const port = await freePort();
  const seedArgs = existsSync(db) ? [] : ["--transactions", String(rows)];
  if (seedArgs.length) console.log(`[bench:mirror] seeding ${db} with ${String(rows)} transactions (once)…`);
  const server = spawn(
    process.execPath,
    [
      ...SANDBOX_CLI,
      "--db",
      db,
      "--port",
      String(port),
      "--budget",
      String(budget),
      "--window-seconds",
      String(windowSeconds),
      "--control",
      "--quiet",
      ...seedArgs,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const baseUrl = `http://127.0.0.1:${String(port)}`;
  try {
    for (let i = 0; i < 3000; i++) {
      try {
        if ((await fetch(`${baseUrl}/healthz`)).ok) break;
      } catch {
        // starting
      }
      await sleep(100);
    }
    return { baseUrl, credentials: demoKey(db), stop: () => server.kill("SIGTERM") };
  } catch (error) {
    server.kill("SIGTERM");
    throw error;
  }
}

/** Where the backfill stood at its first and last progress report (rows done, when), and its first time-left estimate. */
interface Pace {
  firstAt: number;
  firstRows: number;
  lastAt: number;
  lastRows: number;
  estimate: number | null;
}

function printBackfill(
  budget: number,
  factor: number,
  status: string,
  seconds: number,
  pace: Pace,
  requests: { status: number }[],
): void {
  const { firstAt, firstRows, lastAt, lastRows } = pace;
  // The rate from the first backfill page on, scaled to real time: the first window's burst is part of it, as it is for a user.
  const rowsPerMinute = (((lastRows - firstRows) / ((lastAt - firstAt) / 1000)) * 60) / factor;
  const bound = PAGE * budget * 0.75;
  figure(
    `backfill at ${String(budget)}/min, share of the bound 200 × budget × ¾`,
    (rowsPerMinute / bound) * 100,
    "%",
    95,
    ">=",
  );
  console.log(
    `[bench:mirror] backfill at ${String(budget)}/min: ${status}, ${String(lastRows)} rows in ${seconds.toFixed(1)} s (${String(factor)}× window) → ${Math.round(rowsPerMinute).toLocaleString("en-US")} rows/min real time vs bound ${bound.toLocaleString("en-US")} = ${((rowsPerMinute / bound) * 100).toFixed(1)} %; ` +
      `${String(requests.length)} upstream requests, ${String(requests.filter((r) => r.status === 429).length)} × 429; first time-left estimate ${pace.estimate === null ? "–" : `${((pace.estimate * factor) / 1000).toFixed(0)} s real`} vs ${(((lastAt - firstAt) / 1000) * factor).toFixed(0)} s taken (real)`,
  );
}

async function benchBackfill(budget: number, windowSeconds: number, rows: number): Promise<void> {
  const factor = REAL_WINDOW_SECONDS / windowSeconds;
  const upstream = await startUpstream(budget, windowSeconds, rows);
  const storePath = join(DIR, `backfill-${String(budget)}.db`);
  const store = await MirrorStore.open({ path: storePath }).catch((error: unknown) => {
    upstream.stop();
    throw error;
  });
  try {
    const windowMs = windowSeconds * 1000;
    // Both sides agree on the window; the safety margin is scaled with it (it absorbs skew, which does not scale).
    const client = new FleetApiClient({
      baseUrl: `${upstream.baseUrl}/api/v1`,
      budget: new RequestBudget({ budget, windowMs, safetyMarginMs: Math.round(250 / factor) }),
    });
    const sync = new MirrorSync({ store, client, windowMs });
    const pace: Pace = { firstAt: 0, firstRows: 0, lastAt: 0, lastRows: 0, estimate: null };
    const started = performance.now();
    const outcome = await sync.run("PFL", upstream.credentials, {
      phases: ["head", "backfill"],
      onProgress: (p) => {
        if (p.phase !== "backfill") return;
        if (pace.firstAt === 0) {
          pace.firstAt = performance.now();
          pace.firstRows = p.rowsDone;
          pace.estimate = p.timeLeftMs;
        }
        pace.lastAt = performance.now();
        pace.lastRows = p.rowsDone;
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const requests = (
      JSON.parse(await (await fetch(`${upstream.baseUrl}/sandbox/requests`)).text()) as {
        requests: { status: number }[];
      }
    ).requests;
    printBackfill(budget, factor, outcome.status, seconds, pace, requests);
  } finally {
    await store.close();
    upstream.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(storePath + suffix, { force: true });
  }
}
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

/** One figure line: name, value, goal and verdict (pass / fail / info), like the bench's other parts. */
function figure(name: string, value: number, unit: string, goal: number | null, op: "<=" | ">=" = "<="): void {
  const met = goal === null ? null : op === "<=" ? value <= goal : value >= goal;
  const shown = value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(1);
  console.log(
    `[bench:mirror] ${name}: ${shown} ${unit}${goal === null ? " (info)" : ` · goal ${op} ${goal.toLocaleString("en-US")} · ${met ? "pass" : "FAIL"}`}`,
  );
}

/** p50/p95 of up to 20 runs after 3 warm-ups; a slow query stops after a minute of runs (at least 5). */
async function time(label: string, store: MirrorStore, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < 20 && (i < 5 || performance.now() - started < 60_000); i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  const goal = store.dialect === "sqlite" ? 100 : 150;
  figure(`${store.dialect} ${label}, p50`, percentile(ms, 50), "ms", null);
  figure(`${store.dialect} ${label}, p95`, percentile(ms, 95), "ms", goal);
}

/** The mirror's size on disk: the SQLite file (WAL checkpointed), or every mirror table with its indexes (PostgreSQL). */
async function sizeBytes(store: MirrorStore, sqlitePath: string): Promise<number> {
  if (store.dialect === "sqlite") {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
    return statSync(sqlitePath).size + (existsSync(`${sqlitePath}-wal`) ? statSync(`${sqlitePath}-wal`).size : 0);
  }
  const { rows } = await sql<{ bytes: string }>`select sum(pg_total_relation_size(c.oid))::text as bytes
    from pg_class c where c.relkind = 'r' and c.relname like 'mirror%'`.execute(store.db);
  return Number(rows[0]?.bytes ?? 0);
}

async function benchQueries(rows: number): Promise<void> {
  const endMs = Date.parse("2026-11-01T00:00:00Z");
  const pg = await startPostgresServer();
  const sqlitePath = join(DIR, `queries-${String(rows)}.db`);
  try {
    for (const kind of ["sqlite", "postgres"] as const) {
      // The SQLite file is kept between runs (generating a million rows takes minutes); --fresh makes it anew.
      if (kind === "sqlite" && values.fresh)
        for (const suffix of ["", "-wal", "-shm"]) rmSync(sqlitePath + suffix, { force: true });
      const store =
        kind === "sqlite"
          ? await MirrorStore.open({ path: sqlitePath })
          : await MirrorStore.open({ databaseUrl: await pg.createDatabase("bench_mirror") });
      try {
        const t0 = performance.now();
        if ((await store.extent("BENCH")).rows !== rows) {
          await store.purge("BENCH");
          await fill(store, rows, endMs);
          await sql`ANALYZE`.execute(store.db);
        }
        console.log(
          `[bench:mirror] ${kind}: ${rows.toLocaleString("en-US")} rows ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
        figure(
          `${kind} mirror size per 1,000,000 rows (rows, indexes, rollups)`,
          ((await sizeBytes(store, sqlitePath)) / 1e6) * (1_000_000 / rows),
          "MB",
          null,
        );
        // "The last 12 months" as a page asks for them: ending at an instant in the middle of a day, so both ends are
        // partial days (read from the rows) and partial 16-day blocks (read from daily rollups).
        const yearEnd = endMs - 14 * 86_400_000 + 14 * 3_600_000 + 23 * 60_000;
        const year = { fromMs: yearEnd - 365 * 86_400_000, toMs: yearEnd };
        const quarter = { fromMs: Date.parse("2026-07-01T05:00:00Z"), toMs: Date.parse("2026-10-01T05:00:00Z") };
        await time("summary, 12 months (America/Chicago days)", store, () =>
          summarize(store, "BENCH", { ...year, timeZone: "America/Chicago" }),
        );
        await time("state × product, one quarter", store, () => stateProductTotals(store, "BENCH", quarter));
        await time("page: driver + state, sorted by amount", store, () =>
          listPage(store, "BENCH", {
            filter: { driverId: "dr-17", state: STATES[17 % STATES.length] },
            sort: { column: "amount", direction: "desc" },
            limit: 50,
          }),
        );
      } finally {
        await store.close();
      }
    }
  } finally {
    await pg.stop();
  }
}

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const part = values.part;
  if (part === "all" || part === "backfill") {
    for (const budget of [60, 120])
      await benchBackfill(budget, Number(values["window-seconds"]), Number(values["backfill-rows"]));
  }
  if (part === "all" || part === "queries") await benchQueries(Number(values.rows));
}

main().catch((error: unknown) => {
  console.error("[bench:mirror] failed:", error);
  process.exitCode = 1;
});
