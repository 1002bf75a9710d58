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

async function timedGet(origin: string, path: string, cookie: string | null): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const res = await fetch(origin + path, { headers: cookie === null ? {} : { Cookie: cookie } });
  await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status };
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
    MIRROR_PATH: join(dir, "mirror.db"),
    SESSION_DB: join(dir, "sessions.db"),
  });
  try {
    const prober = await signIn(app.origin, sandbox.key);
    await waitForMirror(app.origin, prober);
    const heavy = await Promise.all(Array.from({ length: sessions }, () => signIn(app.origin, sandbox.key)));
    const paths = heavyPaths(Date.now());
    const endAt = performance.now() + seconds * 1000;
    const statuses = new Map<number, number>();
    const heavyMs: number[] = [];
    const askHeavy = async (session: Session, offset: number) => {
      for (let i = offset; performance.now() < endAt; i++) {
        const r = await timedGet(app.origin, paths[i % paths.length] ?? "/api/exceptions", session.cookie);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) heavyMs.push(r.ms);
      }
    };
    const probe = async (path: string, cookie: string | null, into: number[]) => {
      while (performance.now() < endAt) into.push((await timedGet(app.origin, path, cookie)).ms);
    };
    const livez: number[] = [];
    const account: number[] = [];
    const idleLivez: number[] = [];
    for (let i = 0; i < 20; i++) idleLivez.push((await timedGet(app.origin, "/api/livez", null)).ms);
    await Promise.all([
      ...heavy.map((s, i) => askHeavy(s, i)),
      probe("/api/livez", null, livez),
      probe("/api/account", prober.cookie, account),
    ]);
    const load = `${String(sessions)} sessions asking heavy questions for ${String(seconds)} s`;
    const add = (name: string, value: number, unit: string, goal: number | null, note: string) => {
      ctx.add({
        part: "concurrency",
        name,
        value: Math.round(value * 10) / 10,
        unit,
        goal: goal === null ? null : { op: "<=", target: goal },
        note,
      });
    };
    add("GET /api/livez p50, idle", percentile(idleLivez, 50), "ms", null, "20 requests, nothing else running");
    add("GET /api/livez p50 under load", percentile(livez, 50), "ms", null, `${String(livez.length)} requests; ${load}`);
    add("GET /api/livez p99 under load", percentile(livez, 99), "ms", 50, `${String(livez.length)} requests; ${load}`);
    add("GET /api/account p95 under load", percentile(account, 95), "ms", null, `${String(account.length)} requests; ${load}`);
    add("heavy request p95 (200s)", percentile(heavyMs, 95), "ms", null, `${String(heavyMs.length)} answers; ${load}`);
    const counts = [...statuses].map(([s, n]) => `${String(n)} × ${String(s)}`).join(", ");
    ctx.add({ part: "concurrency", name: "heavy answers by status", value: counts, unit: "", goal: null, note: load });
  } finally {
    await app.stop();
    await sandbox.stop();
  }
}
