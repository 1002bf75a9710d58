/**
 * Part 16: no stall (issue 25 item 7) — N sessions (default 40; smoke 4) each ask heavy mirror questions one after
 * another (exceptions over a quarter, the jurisdiction report, the drivers ranking, the two-year summary) while one
 * prober asks GET /api/livez and another session GET /api/account, one request at a time: livez's p50/p99 (goal
 * p99 ≤ 50 ms) and the ordinary read's p95, with how many heavy answers came back and how many were refused (429:
 * the per-session slots). The built app with its mirror on SQLite, synced from the default sandbox fleet first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { type Session, signIn, startBenchApp } from "../lib/app";
import { APP_UNLIMITED_BUDGET, type BenchContext } from "../lib/context";
import { register } from "../lib/processes";
import { percentile } from "../lib/report";
import { seededDatabase, startSandbox, UNLIMITED_BUDGET } from "../lib/sandbox";

const SESSIONS = { default: 40, smoke: 4 };
const SECONDS = { default: 20, smoke: 3 };
const SYNC_WAIT_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The heavy questions, in turn: each a mirror-backed route over a long range. */
function heavyPaths(todayMs: number): string[] {
  const quarter = `from=${dateOf(todayMs - 91 * DAY_MS)}&to=${dateOf(todayMs)}`;
  const twoYears = `from=${dateOf(todayMs - 729 * DAY_MS)}&to=${dateOf(todayMs)}`;
  return [
    `/api/exceptions?${quarter}`,
    `/api/reports/jurisdictions?${quarter}`,
    `/api/drivers?${quarter}`,
    `/api/transactions/summary?${twoYears}`,
  ];
}

async function timedGet(
  origin: string,
  path: string,
  cookie: string | null,
): Promise<{ ms: number; status: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(origin + path, { headers: cookie === null ? {} : { Cookie: cookie } });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status, bytes: body.byteLength };
}

async function waitForMirror(origin: string, session: Session): Promise<void> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/api/sync`, { headers: { Cookie: session.cookie } });
    const status = (await res.json()) as { state?: string; running?: boolean };
    if (status.state === "ready" && status.running === false) return;
    if (status.state === "error") throw new Error(`the mirror did not sync: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the mirror did not finish its first sync within 10 minutes");
}

export async function runConcurrencyPart(ctx: BenchContext): Promise<void> {
  // With the pool (the default) and without it (MIRROR_WORKERS=0: every read on the request thread, as before issue
  // 25 item 7), on the same machine at the same moment's load; the smoke run checks the default only.
  for (const workers of ctx.options.smoke ? [2] : [2, 0]) await measure(ctx, workers);
}

async function measure(ctx: BenchContext, workers: number): Promise<void> {
  const sessions = ctx.options.smoke ? SESSIONS.smoke : SESSIONS.default;
  const seconds = ctx.options.smoke ? SECONDS.smoke : SECONDS.default;
  const sandbox = await startSandbox({
    db: seededDatabase({}, ctx.options.reseed),
    log: false,
    args: ["--budget", String(UNLIMITED_BUDGET)],
  });
  const dir = mkdtempSync(join(tmpdir(), "ffd-bench-concurrency-"));
  register("the concurrency part's folder", () => {
    rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  });
  const app = await startBenchApp(sandbox.baseUrl, {
    FLEET_API_BUDGET: APP_UNLIMITED_BUDGET,
    MIRROR_ENABLED: "true",
    MIRROR_WORKERS: String(workers),
    MIRROR_PATH: join(dir, "mirror.db"),
    SESSION_DB: join(dir, "sessions.db"),
  });
  try {
    const prober = await signIn(app.origin, sandbox.key);
    await waitForMirror(app.origin, prober);
    const heavy = await Promise.all(Array.from({ length: sessions }, () => signIn(app.origin, sandbox.key)));
    const samples = await loadRun(app.origin, prober, heavy, seconds);
    reportFigures(
      ctx,
      workers,
      `${String(sessions)} sessions asking heavy questions for ${String(seconds)} s`,
      samples,
    );
  } finally {
    await app.stop();
    await sandbox.stop();
  }
}

interface Samples {
  idleLivez: number[];
  livez: number[];
  account: number[];
  heavyMs: number[];
  statuses: Map<number, number>;
  /** Each heavy route's reply on its own (the warm-up request): its size and time, e.g. "/api/drivers 12.3 kB in 80 ms". */
  alone: string[];
}

/** Warms each route, samples idle livez, then runs the heavy sessions and the two probers for `seconds`. */
async function loadRun(origin: string, prober: Session, heavy: Session[], seconds: number): Promise<Samples> {
  const paths = heavyPaths(Date.now());
  // Warm: each route's first request loads its code and starts the worker threads; that is start-up, not load. The
  // second, alone, gives each reply's size and time (what one heavy question costs the process without a crowd).
  const samples: Samples = { idleLivez: [], livez: [], account: [], heavyMs: [], statuses: new Map(), alone: [] };
  for (const path of [...paths, "/api/account"]) await timedGet(origin, path, prober.cookie);
  for (const path of paths) {
    const r = await timedGet(origin, path, prober.cookie);
    const kB = (r.bytes / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 });
    samples.alone.push(`${path.split("?")[0] ?? path} ${kB} kB in ${r.ms.toFixed(0)} ms`);
  }
  for (let i = 0; i < 20; i++) samples.idleLivez.push((await timedGet(origin, "/api/livez", null)).ms);
  const endAt = performance.now() + seconds * 1000;
  const askHeavy = async (session: Session, offset: number) => {
    for (let i = offset; performance.now() < endAt; i++) {
      const r = await timedGet(origin, paths[i % paths.length] ?? "/api/exceptions", session.cookie);
      samples.statuses.set(r.status, (samples.statuses.get(r.status) ?? 0) + 1);
      if (r.status === 200) samples.heavyMs.push(r.ms);
    }
  };
  const probe = async (path: string, cookie: string | null, into: number[]) => {
    while (performance.now() < endAt) into.push((await timedGet(origin, path, cookie)).ms);
  };
  await Promise.all([
    ...heavy.map((s, i) => askHeavy(s, i)),
    probe("/api/livez", null, samples.livez),
    probe("/api/account", prober.cookie, samples.account),
  ]);
  return samples;
}

function reportFigures(ctx: BenchContext, workers: number, what: string, s: Samples): void {
  const load = `MIRROR_WORKERS=${String(workers)}; ${what}`;
  const add = (name: string, value: number | string, goal: number | null, note: string) => {
    ctx.add({
      part: "concurrency",
      name: `${name} (MIRROR_WORKERS=${String(workers)})`,
      value: typeof value === "number" ? Math.round(value * 10) / 10 : value,
      unit: typeof value === "number" ? "ms" : "",
      goal: goal === null ? null : { op: "<=", target: goal },
      note,
    });
  };
  add("GET /api/livez p50, idle", percentile(s.idleLivez, 50), null, "20 requests, nothing else running");
  add("GET /api/livez p50 under load", percentile(s.livez, 50), null, `${String(s.livez.length)} requests; ${load}`);
  add("GET /api/livez p99 under load", percentile(s.livez, 99), 50, `${String(s.livez.length)} requests; ${load}`);
  add(
    "GET /api/account p95 under load",
    percentile(s.account, 95),
    null,
    `${String(s.account.length)} requests; ${load}`,
  );
  add("heavy request p95 (200s)", percentile(s.heavyMs, 95), null, `${String(s.heavyMs.length)} answers; ${load}`);
  const counts = [...s.statuses].map(([status, n]) => `${String(n)} × ${String(status)}`).join(", ");
  add("heavy answers by status", counts, null, load);
  add("each heavy reply alone (size, time)", s.alone.join("; "), null, "one request each, before the load");
}
