/**
 * Part 9, live: the mirror in the built app against the sandbox, counting the upstream requests the sandbox served
 * (its `/sandbox/requests` list, on with `--control`): (a) the steady state of one open transactions page once the
 * mirror is ready, per minute; (b) a new sign-in and the overview's requests with the mirror already warm.
 */
import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import { type App, type Session, signIn, startBenchApp } from "../lib/app";
import type { BenchContext } from "../lib/context";
import { APP_UNLIMITED_BUDGET } from "../lib/context";
import { type Sandbox, seededDatabase, type SeedSizes, startSandbox, UNLIMITED_BUDGET } from "../lib/sandbox";
import { SMOKE_TRANSACTIONS } from "./sandbox";

/** What an open transactions page polls: the shell's sync line (SYNC_POLL_MS) and the list, refetched every 30 s. */
const SYNC_POLL_MS = 15_000;
const LIST_POLL_MS = 30_000;
const STEADY_MS = { full: 3 * 60_000, smoke: 20_000 };
const READY_TIMEOUT_MS = 5 * 60_000;
const READY_POLL_MS = 1_000;
/** After the overview's requests: time for the background sync the sign-in starts to make its calls. */
const AFTER_OVERVIEW_MS = 5_000;
/**
 * What the overview page asks the BFF for (lib/queries: session badge, account, 30-day summary, latest 10, sync line,
 * the savings panel — which walks the station catalog when the mirror's record of it is older than 6 h).
 */
const OVERVIEW_PATHS = [
  "/api/session",
  "/api/account",
  "/api/transactions/summary",
  "/api/transactions?limit=10",
  "/api/sync",
  "/api/savings",
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Served {
  atMs: number;
  method: string;
  path: string;
  status: number;
}

/** The /api/v1 requests the sandbox has served so far (needs `--control`). */
async function served(sandbox: Sandbox): Promise<Served[]> {
  const origin = sandbox.baseUrl.replace(/\/api\/v1$/, "");
  const reply = await fetch(`${origin}/sandbox/requests`);
  if (!reply.ok) throw new Error(`GET /sandbox/requests answered ${String(reply.status)}`);
  return ((await reply.json()) as { requests: Served[] }).requests;
}

/** Served requests as "3× GET /transactions, …" for a figure's note. */
function byPath(requests: readonly Served[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.method} ${r.path.replace(/^\/api\/v1/, "").replace(/\?.*$/, "")}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${String(n)}× ${k}`).join(", ") || "none";
}

async function bffGet(app: App, session: Session, path: string): Promise<unknown> {
  const reply = await fetch(`${app.origin}${path}`, { headers: { Cookie: session.cookie } });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`GET ${path} answered ${String(reply.status)}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

/**
 * Polls GET /api/sync until the mirror says `ready` and no run is in progress (`ready` comes when the backfill is
 * complete; the sign-in's verification still runs after it, and belongs to the sign-in, not to the steady state).
 * The last state seen when it does not within the timeout.
 */
export async function waitReady(app: App, session: Session): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let state = "";
  while (Date.now() < deadline) {
    const reply = (await bffGet(app, session, "/api/sync")) as Pick<SyncStatusReply, "state" | "running">;
    state = reply.running ? `${reply.state} (running)` : reply.state;
    if (state === "ready") return state;
    await sleep(READY_POLL_MS);
  }
  return state;
}

/**
 * The customer's history the live part syncs at sign-in: the default (25,000 rows) in a full run; in a smoke run,
 * which only proves the path, the sandbox part's smoke history (seeded and cached by then). The backfill of 25,000
 * rows before "ready" took about 30 s of the smoke run on a loaded 2-core machine (issue 26: CI stays fast).
 */
export function liveSeedSizes(options: { smoke: boolean }): SeedSizes {
  return options.smoke ? { transactions: SMOKE_TRANSACTIONS } : {};
}

export async function runMirrorLivePart(ctx: BenchContext): Promise<void> {
  const sandbox = await startSandbox({
    db: seededDatabase(liveSeedSizes(ctx.options), ctx.options.reseed),
    args: ["--control", "--budget", String(UNLIMITED_BUDGET)],
  });
  const app = await startBenchApp(sandbox.baseUrl, { FLEET_API_BUDGET: APP_UNLIMITED_BUDGET, MIRROR_ENABLED: "true" });
  try {
    const session = await signIn(app.origin, sandbox.key);
    const state = await waitReady(app, session);
    if (state !== "ready") {
      const reason = `GET /api/sync said "${state}", not "ready", ${String(READY_TIMEOUT_MS / 60_000)} min after sign-in`;
      ctx.notMeasured({ ...STEADY_FIGURE, reason, note: "" });
      ctx.notMeasured({ ...WARM_FIGURE, reason, note: "" });
      return;
    }
    await measureSteadyState(ctx, sandbox, app, session);
    await measureWarmSignIn(ctx, sandbox, app);
  } finally {
    await app.stop();
    await sandbox.stop();
  }
}

const STEADY_FIGURE = {
  part: "mirror",
  name: "steady state, one page open: upstream requests/min",
  unit: "requests/min",
  goal: { op: "<=", target: 2 },
} as const;

const WARM_FIGURE = {
  part: "mirror",
  name: "sign-in to overview, warm mirror: upstream requests",
  unit: "requests",
  goal: { op: "<=", target: 3 },
} as const;

/** (a) An open transactions page for N minutes: GET /api/sync every 15 s, GET /api/transactions every 30 s. */
async function measureSteadyState(ctx: BenchContext, sandbox: Sandbox, app: App, session: Session): Promise<void> {
  const periodMs = ctx.options.smoke ? STEADY_MS.smoke : STEADY_MS.full;
  const mark = (await served(sandbox)).length;
  const started = Date.now();
  for (let tick = 0; tick * SYNC_POLL_MS < periodMs; tick++) {
    await sleep(Math.max(0, started + tick * SYNC_POLL_MS - Date.now()));
    await bffGet(app, session, "/api/sync");
    if ((tick * SYNC_POLL_MS) % LIST_POLL_MS === 0) await bffGet(app, session, "/api/transactions?limit=50");
  }
  await sleep(Math.max(0, started + periodMs - Date.now()));
  const during = (await served(sandbox)).slice(mark);
  const minutes = periodMs / 60_000;
  ctx.add({
    ...STEADY_FIGURE,
    value: Number((during.length / minutes).toFixed(2)),
    note: `${String(during.length)} upstream requests in ${String(periodMs / 1000)} s after GET /api/sync said ready with no run in progress (${byPath(during)}); the page is simulated over HTTP: GET /api/sync every 15 s (the shell's poll) and GET /api/transactions?limit=50 every 30 s (a list refetch), one session, counted from the sandbox's served-request list`,
  });
}

/** (b) A new session on the warm mirror: sign-in, the overview's requests, 5 s more; everything the sandbox served. */
async function measureWarmSignIn(ctx: BenchContext, sandbox: Sandbox, app: App): Promise<void> {
  const mark = (await served(sandbox)).length;
  const session = await signIn(app.origin, sandbox.key);
  await Promise.all(OVERVIEW_PATHS.map((path) => bffGet(app, session, path)));
  await sleep(AFTER_OVERVIEW_MS);
  const since = (await served(sandbox)).slice(mark);
  ctx.add({
    ...WARM_FIGURE,
    value: since.length,
    note: `${byPath(since)}; a new session (POST /api/session) with the mirror ready from the steady-state run, then GET ${OVERVIEW_PATHS.join(", ")} at once, then ${String(AFTER_OVERVIEW_MS / 1000)} s more: counts every request the sandbox served since the sign-in, the background sync's (head sync, verification) included`,
  });
}
