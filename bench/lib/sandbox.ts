/**
 * The sandbox for the bench: seeded databases cached under `.data/` (keyed by seed and sizes, so a re-run skips the
 * 35–45 s a million transactions take), and the sandbox server as a separate process on a free loopback port.
 */
import { execFileSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";

import { openDatabase } from "@/sandbox/db/open";
import { DEFAULT_SEED, DEFAULT_STATIONS, DEFAULT_TRANSACTIONS } from "@/sandbox/db/seed";

import { type Child, spawnNode, waitUntil } from "./processes";

export const SANDBOX_CLI = ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts"];
/** A budget no measurement reaches, for parts that do not measure the budget. */
export const UNLIMITED_BUDGET = 1_000_000_000;
const START_TIMEOUT_MS = 120_000;

export interface SeedSizes {
  seed?: number;
  transactions?: number;
  stations?: number;
}

/** Path of the cached database for these sizes, seeding it first when missing (or when `reseed`). */
export function seededDatabase(sizes: SeedSizes, reseed = false): string {
  const seed = sizes.seed ?? DEFAULT_SEED;
  const transactions = sizes.transactions ?? DEFAULT_TRANSACTIONS;
  const stations = sizes.stations ?? DEFAULT_STATIONS;
  const path = `.data/bench-s${String(seed)}-t${String(transactions)}-st${String(stations)}.db`;
  if (existsSync(path) && !reseed) return path;
  // Seeded under another name and renamed when complete, so an interrupted seed never leaves a half-filled cache.
  const partial = `${path}.partial`;
  for (const file of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(file, { force: true });
  const started = Date.now();
  console.log(
    `[bench] seeding ${path} (${transactions.toLocaleString("en-US")} transactions, ${stations.toLocaleString("en-US")} stations)…`,
  );
  const { db } = openDatabase({ path: partial, seed: { seed, transactions, stations } });
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("journal_mode = DELETE");
  db.close();
  renameSync(partial, path);
  console.log(`[bench] seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path;
}

export interface DemoKeyPair {
  keyId: string;
  secret: string;
}

/** The seeded `demo-full` key pair of a database (`sandbox/cli.ts keys demo --json`). */
export function demoKey(db: string): DemoKeyPair {
  const pairs = JSON.parse(
    execFileSync(process.execPath, [...SANDBOX_CLI, "keys", "demo", "--json", "--db", db], { encoding: "utf8" }),
  ) as { label: string; key_id: string; secret: string }[];
  const full = pairs.find((p) => p.label === "demo-full");
  if (!full) throw new Error(`no demo-full key in ${db}`);
  return { keyId: full.key_id, secret: full.secret };
}

export interface Sandbox {
  /** {base_url}: http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  db: string;
  key: DemoKeyPair;
  child: Child;
  /** Upstream requests the sandbox has logged so far (`[sandbox] GET /api/v1/… 200`); needs `log: true`. */
  requestCount(): number;
  /** The logged request lines after the first `from` of them. */
  requestLines(from?: number): string[];
  stop(): Promise<void>;
}

const REQUEST_LINE = /^\[sandbox\] (?:GET|POST|PUT|PATCH|DELETE) \/api\/v1\/\S* \d{3}.*$/gm;

/** Starts `sandbox/cli.ts` on a free port (it binds port 0) over `db`; `args` adds flags (budget, window, profile…). */
export async function startSandbox(options: { db: string; args?: string[]; log?: boolean }): Promise<Sandbox> {
  const child = spawnNode("the sandbox", [
    ...SANDBOX_CLI,
    "--port",
    "0",
    "--db",
    options.db,
    ...(options.log ? [] : ["--quiet"]),
    ...(options.args ?? []),
  ]);
  let baseUrl = "";
  await waitUntil(
    "the sandbox to listen",
    () => {
      baseUrl = /at (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(child.output())?.[1] ?? "";
      return baseUrl !== "";
    },
    START_TIMEOUT_MS,
    child,
  );
  const lines = () => child.output().match(REQUEST_LINE) ?? [];
  return {
    baseUrl,
    db: options.db,
    key: demoKey(options.db),
    child,
    requestCount: () => lines().length,
    requestLines: (from = 0) => lines().slice(from),
    stop: () => child.stop(),
  };
}

/** A bearer token for the key, straight from the sandbox's `POST /auth` (for measuring the sandbox direct). */
export async function bearerToken(baseUrl: string, key: DemoKeyPair): Promise<string> {
  const res = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ key_id: key.keyId, secret: key.secret }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || body.access_token === undefined) throw new Error(`POST /auth answered ${String(res.status)}`);
  return body.access_token;
}
