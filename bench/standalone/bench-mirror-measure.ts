/** bench:mirror's measurements, shared by the standalone script and `npm run bench -- mirror`. */
import { spawn } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

import { CompiledQuery, sql } from "kysely";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import {
  listPage,
  type MirrorFilter,
  MirrorStore,
  MirrorSync,
  stateProductTotals,
  summarize,
  whereOf,
} from "@/lib/mirror";
import { freePort } from "@/test/net";
import { startPostgresServer } from "@/test/postgres-server";

import { demoKey, SANDBOX_CLI } from "../lib/sandbox";
import { fill, STATES } from "./bench-mirror-data";

export const DIR = ".data/bench-mirror";
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

function reportBackfill(
  r: Reporter,
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
  const taken = `${String(requests.length)} upstream requests, ${String(requests.filter((q) => q.status === 429).length)} × 429`;
  r.figure({
    name: `backfill at ${String(budget)}/min: rows/min as a share of the bound 200 × budget × ¾`,
    value: (rowsPerMinute / bound) * 100,
    unit: "%",
    goal: { op: ">=", target: 95 },
    note: `${Math.round(rowsPerMinute).toLocaleString("en-US")} rows/min (real time; ${String(factor)}× shortened window) vs ${bound.toLocaleString("en-US")}; ${taken}`,
  });
  r.log(
    `backfill at ${String(budget)}/min: ${status}, ${String(lastRows)} rows in ${seconds.toFixed(1)} s (${String(factor)}× window) → ${Math.round(rowsPerMinute).toLocaleString("en-US")} rows/min real time vs bound ${bound.toLocaleString("en-US")} = ${((rowsPerMinute / bound) * 100).toFixed(1)} %; ` +
      `${String(requests.length)} upstream requests, ${String(requests.filter((r) => r.status === 429).length)} × 429; first time-left estimate ${pace.estimate === null ? "–" : `${((pace.estimate * factor) / 1000).toFixed(0)} s real`} vs ${(((lastAt - firstAt) / 1000) * factor).toFixed(0)} s taken (real)`,
  );
}

export async function benchBackfill(r: Reporter, budget: number, windowSeconds: number, rows: number): Promise<void> {
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
    reportBackfill(r, budget, factor, outcome.status, seconds, pace, requests);
  } finally {
    await store.close();
    upstream.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(storePath + suffix, { force: true });
  }
}
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

/** A figure: name, value, unit and goal; the caller prints it (bench:mirror) or adds it to the report (bench mirror). */
export interface MirrorFigure {
  name: string;
  value: number;
  unit: string;
  goal: { op: "<=" | ">="; target: number } | null;
  note: string;
}

export interface Reporter {
  figure: (f: MirrorFigure) => void;
  log: (line: string) => void;
}

/** p50/p95 of up to 20 runs after 3 warm-ups; a slow query stops after a minute of runs (at least 5). */
export async function time(r: Reporter, label: string, store: MirrorStore, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < 20 && (i < 5 || performance.now() - started < 60_000); i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  const target = store.dialect === "sqlite" ? 100 : 150;
  const note = `${String(ms.length)} warm runs after 3 warm-ups`;
  r.figure({ name: `${store.dialect}: ${label}, p50`, value: percentile(ms, 50), unit: "ms", goal: null, note });
  r.figure({
    name: `${store.dialect}: ${label}, p95`,
    value: percentile(ms, 95),
    unit: "ms",
    goal: { op: "<=", target },
    note,
  });
}

/** The store's plan for listPage's row query of a driver + state page sorted by amount (EXPLAIN on each store). */
async function pagePlan(store: MirrorStore, filter: MirrorFilter): Promise<string> {
  const page = store.db
    .selectFrom("mirror_transactions")
    .selectAll()
    .where((eb) => whereOf(eb, "BENCH", filter))
    .orderBy("amount_cents", "desc")
    .orderBy("at_ms", "desc")
    .orderBy("id")
    .limit(50)
    .compile();
  const prefix = store.dialect === "sqlite" ? "explain query plan " : "explain ";
  // SQLite's EXPLAIN QUERY PLAN names each step in `detail`; PostgreSQL's EXPLAIN returns one "QUERY PLAN" line per row.
  const { rows } = await store.db.executeQuery<{ detail?: string; "QUERY PLAN"?: string }>(
    CompiledQuery.raw(prefix + page.sql, [...page.parameters]),
  );
  return rows.map((row) => (row.detail ?? row["QUERY PLAN"] ?? "").trim()).join(" · ");
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

export async function benchQueries(r: Reporter, rows: number, fresh: boolean): Promise<void> {
  const endMs = Date.parse("2026-11-01T00:00:00Z");
  const pg = await startPostgresServer();
  const sqlitePath = join(DIR, `queries-${String(rows)}.db`);
  try {
    for (const kind of ["sqlite", "postgres"] as const) {
      // The SQLite file is kept between runs (generating a million rows takes minutes); --fresh makes it anew.
      if (kind === "sqlite" && fresh)
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
        r.log(
          `${kind}: ${rows.toLocaleString("en-US")} rows ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
        r.figure({
          name: `${kind}: mirror size per 1,000,000 rows (rows, indexes, rollups)`,
          value: ((await sizeBytes(store, sqlitePath)) / 1e6) * (1_000_000 / rows),
          unit: "MB",
          goal: null,
          note: `${rows.toLocaleString("en-US")} rows measured, scaled`,
        });
        // "The last 12 months" as a page asks for them: ending at an instant in the middle of a day, so both ends are
        // partial days (read from the rows) and partial 16-day blocks (read from daily rollups).
        const yearEnd = endMs - 14 * 86_400_000 + 14 * 3_600_000 + 23 * 60_000;
        const year = { fromMs: yearEnd - 365 * 86_400_000, toMs: yearEnd };
        const quarter = { fromMs: Date.parse("2026-07-01T05:00:00Z"), toMs: Date.parse("2026-10-01T05:00:00Z") };
        await time(r, "summary, 12 months (America/Chicago days)", store, () =>
          summarize(store, "BENCH", { ...year, timeZone: "America/Chicago" }),
        );
        await time(r, "state × product, one quarter", store, () => stateProductTotals(store, "BENCH", quarter));
        const pageFilter = { driverId: "dr-17", state: STATES[17 % STATES.length] };
        await time(r, "page: driver + state, sorted by amount", store, () =>
          listPage(store, "BENCH", { filter: pageFilter, sort: { column: "amount", direction: "desc" }, limit: 50 }),
        );
        r.log(`${kind} plan of that page: ${await pagePlan(store, pageFilter)}`);
      } finally {
        await store.close();
      }
    }
  } finally {
    await pg.stop();
  }
}
