import { type Credentials, FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import { MirrorStore, MirrorSync } from "@/lib/mirror";
import type { Transaction } from "@/lib/model";
import { mirrorPlacesOfThisFile, type StoreKind } from "@/test/mirror-places";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

/**
 * Tests only (lib/mirror/mirror-*.test.ts): the mirror against the real sandbox (over HTTP, both profiles) and both
 * real stores: SQLite in a temporary file and a PostgreSQL server started in a temporary directory. The sandbox's
 * budget window is shortened to one second (client and sandbox agree on it) so the budget rule is exercised without
 * minutes of waiting.
 */

export const BUDGET = 24;
export const WINDOW_MS = 1000;
/** Pages of 50 rows: several pages per sync even on the small test data set. */
export const PAGE_SIZE = 50;

export const MIRROR_CASES = [
  ["primary", "sqlite"],
  ["primary", "postgres"],
  ["alternative", "sqlite"],
  ["alternative", "postgres"],
] as const;

/** Starts PostgreSQL and a temporary directory for the file (before its tests; stopped after): opens a fresh store. */
export function mirrorStoresOfThisFile(): (kind: StoreKind) => Promise<MirrorStore> {
  const placeOf = mirrorPlacesOfThisFile("mirror");
  return async (kind) => MirrorStore.open(await placeOf(kind));
}

export interface MirrorUpstream {
  upstream: SandboxProcess;
  client: FleetApiClient;
  pfl: Credentials;
  chi: Credentials;
  newSync: (store: MirrorStore) => MirrorSync;
}

/** A sandbox of the profile with a one-second budget window, and a client and syncs that keep to it. */
export async function startMirrorUpstream(profile: "primary" | "alternative"): Promise<MirrorUpstream> {
  const upstream = await startSandboxProcess({
    profile,
    args: ["--control", "--budget", String(BUDGET), "--window-seconds", String(WINDOW_MS / 1000)],
  });
  // The default 250 ms margin: the sends of any window are spaced 1.25 s apart at the client, which absorbs the
  // scheduling jitter between a grant and its arrival on a loaded machine; the sandbox counts 1 s windows.
  const client = new FleetApiClient({
    baseUrl: upstream.baseUrl,
    budget: new RequestBudget({ budget: BUDGET, windowMs: WINDOW_MS, safetyMarginMs: 250 }),
  });
  return {
    upstream,
    client,
    pfl: upstream.keys["demo-full"],
    chi: upstream.keys["other-full"],
    newSync: (store) => new MirrorSync({ store, client, pageSize: PAGE_SIZE, windowMs: WINDOW_MS }),
  };
}

export interface Served {
  atMs: number;
  method: string;
  path: string;
  status: number;
}

export async function control(
  upstream: SandboxProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const origin = upstream.baseUrl.replace(/\/api\/v1$/, "");
  const reply = await fetch(`${origin}/sandbox${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!reply.ok) throw new Error(`${method} ${path}: ${String(reply.status)} ${await reply.text()}`);
  return reply.json();
}

export const served = async (upstream: SandboxProcess) =>
  ((await control(upstream, "GET", "/requests")) as { requests: Served[] }).requests;

/** The most requests of one key's traffic in any window of `windowMs` (the sandbox's arrival times). */
export function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= windowMs) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}

/** The upstream's whole list, newest first, in the mirror's order (time, then id). */
export async function upstreamWalk(client: FleetApiClient, credentials: Credentials): Promise<Transaction[]> {
  const all: Transaction[] = [];
  for await (const t of client.iterateTransactions(credentials, {}, { pageSize: 200, priority: "interactive" }))
    all.push(t);
  return all.sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? 1 : -1));
}
