/**
 * Part 1: every list query of the sandbox at 1,000,000 transactions (p50/p99 at one connection, req/s at four),
 * and the same queries against `prism mock` serving the sandbox's own OpenAPI document, as sandbox/prism ratios.
 * The sandbox runs in its own process, so the load generator does not share its event loop. Goal (issue 2): p99 ≤
 * 25 ms for every list query on 2 cores.
 */
import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort } from "@/test/net";

import type { BenchContext } from "../lib/context";
import { type LoadResult, runLoad } from "../lib/load";
import { answers, spawnNode, waitUntil } from "../lib/processes";
import { bearerToken, seededDatabase, startSandbox, UNLIMITED_BUDGET } from "../lib/sandbox";

const P99_GOAL_MS = 25;
const PRISM_CLI = "node_modules/@stoplight/prism-cli/dist/index.js";
const MANY_CONNECTIONS = 4;
const PRISM_LOG_CHARS = 64 * 1024;
const SMOKE_QUERIES = 3;

interface Sizes {
  transactions: number;
  /** Seconds at one connection (latency) and at MANY_CONNECTIONS (throughput), per query. */
  latencySeconds: number;
  throughputSeconds: number;
}

/** The sandbox part's history in a smoke run (a database other smoke parts reuse from the seed cache). */
export const SMOKE_TRANSACTIONS = 5_000;

const SIZES = {
  default: { transactions: 1_000_000, latencySeconds: 3, throughputSeconds: 2 },
  long: { transactions: 1_000_000, latencySeconds: 8, throughputSeconds: 4 },
  smoke: { transactions: SMOKE_TRANSACTIONS, latencySeconds: 1, throughputSeconds: 1 },
} satisfies Record<string, Sizes>;

/** The list queries, named, as paths under {base_url}; built from a sample row so the searches match real data. */
async function listQueries(baseUrl: string, headers: Record<string, string>): Promise<[string, string][]> {
  const get = async <T>(pathAndQuery: string): Promise<T> =>
    ((await (await fetch(baseUrl + pathAndQuery, { headers })).json()) as { data: T }).data;
  const sample = await get<{
    total: number;
    items: { driver: { name: string }; card: { last4: string }; station: { name: string } }[];
  }>("/transactions?limit=1&page=777");
  const item = sample.items[0] ?? (await get<typeof sample>("/transactions?limit=1")).items[0];
  if (!item) throw new Error("the sandbox has no transactions to query");
  const lastPage = Math.max(1, Math.ceil(sample.total / 200));
  const surname = item.driver.name.split(" ").at(-1) ?? item.driver.name;
  const pilotPages = (await get<{ pages: number }>("/transactions?search=pilot&limit=200")).pages;
  return [
    ["first page (limit 50)", "/transactions"],
    ["page 1, limit 200", "/transactions?limit=200"],
    ["middle page, limit 200", `/transactions?limit=200&page=${String(Math.max(1, Math.floor(lastPage / 2)))}`],
    ["last page, limit 200", `/transactions?limit=200&page=${String(lastPage)}`],
    ["status=pending", "/transactions?status=pending&limit=200"],
    ["status=failed", "/transactions?status=failed&limit=200"],
    ["one month (from/to)", "/transactions?from=2026-01-01&to=2026-01-31&limit=200"],
    ["search driver surname", `/transactions?search=${encodeURIComponent(surname)}&limit=200`],
    ["search card last4", `/transactions?search=${item.card.last4}&limit=200`],
    ["search station name", `/transactions?search=${encodeURIComponent(item.station.name.slice(0, 10))}&limit=200`],
    ["search broad ('pilot')", "/transactions?search=pilot&limit=200"],
    [
      "search + status + dates",
      `/transactions?search=${encodeURIComponent(surname)}&status=completed&from=2025-06-01&to=2026-05-31&limit=200`,
    ],
    // Worst cases, reported rather than hidden: a one-letter search matches nearly every row, and the deep pages of
    // a broad search have to walk most of the time index.
    ["search one letter ('a')", "/transactions?search=a&limit=200"],
    ["search 'pilot', last page", `/transactions?search=pilot&limit=200&page=${String(Math.max(1, pilotPages))}`],
    [
      "search 'pilot', middle page",
      `/transactions?search=pilot&limit=200&page=${String(Math.max(1, Math.ceil(pilotPages / 2)))}`,
    ],
    ["locations page (limit 500)", "/locations?limit=500"],
    ["locations search + state", "/locations?search=pilot&state=TX"],
  ];
}

interface Measured {
  single: LoadResult;
  many: LoadResult;
}

async function measure(url: string, headers: Record<string, string>, sizes: Sizes): Promise<Measured> {
  const single = await runLoad({ url, headers, connections: 1, seconds: sizes.latencySeconds });
  const many = await runLoad({ url, headers, connections: MANY_CONNECTIONS, seconds: sizes.throughputSeconds });
  return { single, many };
}

export async function runSandboxPart(ctx: BenchContext): Promise<void> {
  const sizes: Sizes = ctx.options.smoke ? SIZES.smoke : ctx.options.long ? SIZES.long : SIZES.default;
  const db = seededDatabase({ transactions: sizes.transactions }, ctx.options.reseed);
  const sandbox = await startSandbox({ db, args: ["--budget", String(UNLIMITED_BUDGET)] });
  const headers = { Authorization: `Bearer ${await bearerToken(sandbox.baseUrl, sandbox.key)}` };
  const allQueries = await listQueries(sandbox.baseUrl, headers);
  // The smoke run only proves the path works end to end: a few queries are enough.
  const queries = ctx.options.smoke ? allQueries.slice(0, SMOKE_QUERIES) : allQueries;
  const run: QueryRun = { headers, queries, sizes };
  const sandboxResults = await measureSandbox(ctx, sandbox.baseUrl, run);

  // Prism mocks the same document the sandbox serves, so the same queries are valid against it (it serves the paths
  // at its root: the document's server URL is relative). The ratio tells how far the real queries are from a
  // server that does no work at all.
  const dir = await mkdtemp(path.join(tmpdir(), "ffd-bench-prism-"));
  const document = path.join(dir, "openapi.json");
  writeFileSync(document, await (await fetch(`${sandbox.baseUrl}/docs/openapi`)).text());
  await sandbox.stop();
  await compareWithPrism(ctx, document, run, sandboxResults);
}

interface QueryRun {
  headers: Record<string, string>;
  queries: [string, string][];
  sizes: Sizes;
}

/** Each list query's p99 and req/s on the sandbox, and the worst p99. */
async function measureSandbox(ctx: BenchContext, baseUrl: string, run: QueryRun): Promise<Map<string, Measured>> {
  const { headers, queries, sizes } = run;
  const how = `${sizes.transactions.toLocaleString("en-US")} transactions; autocannon ${String(sizes.latencySeconds)} s at 1 connection (latency), ${String(sizes.throughputSeconds)} s at ${String(MANY_CONNECTIONS)} (req/s)`;
  const sandboxResults = new Map<string, Measured>();
  for (const [name, query] of queries) {
    const result = await measure(baseUrl + query, headers, sizes);
    sandboxResults.set(name, result);
    const errors = result.single.failures + result.many.failures;
    ctx.add({
      part: "sandbox",
      name: `${name}: p99`,
      value: result.single.p99,
      unit: "ms",
      goal: { op: "<=", target: P99_GOAL_MS },
      note: `GET ${query}; p50 ${String(result.single.p50)} ms, max ${String(result.single.max)} ms; ${how}${errors > 0 ? `; ${String(errors)} non-2xx/errors` : ""}`,
    });
    ctx.add({
      part: "sandbox",
      name: `${name}: req/s at ${String(MANY_CONNECTIONS)} connections`,
      value: Math.round(result.many.rps),
      unit: "req/s",
      note: `GET ${query}; ${String(Math.round(result.single.rps))} req/s at 1 connection`,
    });
  }
  const worst = Math.max(...[...sandboxResults.values()].map((r) => r.single.p99));
  ctx.add({
    part: "sandbox",
    name: "worst list-query p99",
    value: worst,
    unit: "ms",
    goal: { op: "<=", target: P99_GOAL_MS },
    note: how,
  });
  return sandboxResults;
}

/** The same queries on `prism mock` of the sandbox's OpenAPI document: sandbox/prism ratios of p99 and req/s. */
async function compareWithPrism(
  ctx: BenchContext,
  document: string,
  run: QueryRun,
  sandboxResults: Map<string, Measured>,
): Promise<void> {
  const { headers, queries, sizes } = run;
  const port = await freePort();
  const prism = spawnNode(
    "prism mock",
    [PRISM_CLI, "mock", "-h", "127.0.0.1", "-p", String(port), document],
    {},
    PRISM_LOG_CHARS,
  );
  const prismBase = `http://127.0.0.1:${String(port)}`;
  await waitUntil("prism mock to listen", () => answers(`${prismBase}/account-details`), 60_000, prism);
  const p99Ratios: number[] = [];
  const rpsRatios: number[] = [];
  for (const [name, query] of queries) {
    const own = sandboxResults.get(name);
    if (!own) continue;
    const mock = await measure(prismBase + query, headers, sizes);
    if (mock.single.failures > 0) {
      ctx.notMeasured({
        part: "sandbox",
        name: `${name}: sandbox/prism`,
        reason: `prism answered ${String(mock.single.failures)} requests with non-2xx or errors`,
        note: "",
      });
      continue;
    }
    const p99Ratio = own.single.p99 / Math.max(1, mock.single.p99);
    const rpsRatio = own.many.rps / mock.many.rps;
    p99Ratios.push(p99Ratio);
    rpsRatios.push(rpsRatio);
    ctx.add({
      part: "sandbox",
      name: `${name}: sandbox/prism`,
      value: `p99 ${p99Ratio.toFixed(2)}×, req/s ${rpsRatio.toFixed(2)}×`,
      note: `prism p50/p99 ${String(mock.single.p50)}/${String(mock.single.p99)} ms, ${String(Math.round(mock.many.rps))} req/s at ${String(MANY_CONNECTIONS)}; sandbox ${String(own.single.p50)}/${String(own.single.p99)} ms, ${String(Math.round(own.many.rps))} req/s`,
    });
  }
  await prism.stop();
  if (rpsRatios.length > 0) {
    ctx.add({
      part: "sandbox",
      name: "all list queries: sandbox/prism req/s (geometric mean)",
      value: geometricMean(rpsRatios),
      unit: "×",
      note: `> 1: the sandbox answers faster than Prism's mock of its own OpenAPI document (@stoplight/prism-cli mock, dynamic examples off); p99 ratio geometric mean ${geometricMean(p99Ratios).toFixed(2)}×`,
    });
  }
}

function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}
