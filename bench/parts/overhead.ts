/**
 * Part 2: what the BFF adds. autocannon (one connection) on `GET /api/transactions` served from the BFF's cache
 * (the same page again and again) and uncached (a new page every request, so each one goes upstream), against the
 * same queries on the sandbox direct with a bearer token. Figures: added p50/p99 latency and req/s of each.
 */
import type { BenchContext } from "../lib/context";
import { type LoadResult, runLoad } from "../lib/load";
import { bearerToken } from "../lib/sandbox";

const SECONDS = { default: 5, long: 15, smoke: 1 };
/** Distinct pages asked for in the uncached run: each is a cache miss (25,000 rows / 10 per page = 2,500 pages). */
const UNCACHED_REQUESTS = { default: 400, long: 1_500, smoke: 40 };
const UNCACHED_LIMIT = 10;
const CACHED_QUERY = "limit=50";

function pageCycler(prefix: string): () => string {
  let page = 0;
  return () => `${prefix}limit=${String(UNCACHED_LIMIT)}&page=${String(++page)}`;
}

export async function runOverheadPart(ctx: BenchContext): Promise<void> {
  const size = ctx.options.smoke ? "smoke" : ctx.options.long ? "long" : "default";
  const { sandbox, app, session } = await ctx.shared();
  const bffHeaders = { Cookie: session.cookie };
  const directHeaders = { Authorization: `Bearer ${await bearerToken(sandbox.baseUrl, sandbox.key)}` };
  const seconds = SECONDS[size];
  const amount = UNCACHED_REQUESTS[size];
  const sandboxPath = new URL(sandbox.baseUrl).pathname;

  // Warm both (JIT, the token, the first cache fill) before measuring.
  await runLoad({
    url: `${app.origin}/api/transactions?${CACHED_QUERY}`,
    headers: bffHeaders,
    connections: 1,
    amount: 20,
  });
  await runLoad({
    url: `${sandbox.baseUrl}/transactions?${CACHED_QUERY}`,
    headers: directHeaders,
    connections: 1,
    amount: 20,
  });

  const runs: [string, string, LoadResult, LoadResult][] = [
    [
      "cached",
      `GET /api/transactions?${CACHED_QUERY} (served from the 20 s cache) vs GET /transactions?${CACHED_QUERY} direct; ${String(seconds)} s each, 1 connection`,
      await runLoad({
        url: `${app.origin}/api/transactions?${CACHED_QUERY}`,
        headers: bffHeaders,
        connections: 1,
        seconds,
      }),
      await runLoad({
        url: `${sandbox.baseUrl}/transactions?${CACHED_QUERY}`,
        headers: directHeaders,
        connections: 1,
        seconds,
      }),
    ],
    [
      "uncached",
      `GET /api/transactions?limit=${String(UNCACHED_LIMIT)}&page=1…${String(amount)} (each page once: every request goes upstream) vs the same pages direct; 1 connection`,
      await runLoad({
        url: `${app.origin}/api/transactions`,
        headers: bffHeaders,
        connections: 1,
        amount,
        nextPath: pageCycler("/api/transactions?"),
      }),
      await runLoad({
        url: `${sandbox.baseUrl}/transactions`,
        headers: directHeaders,
        connections: 1,
        amount,
        nextPath: pageCycler(`${sandboxPath}/transactions?`),
      }),
    ],
  ];
  for (const [name, how, bff, direct] of runs) addOverheadFigures(ctx, name, how, bff, direct);
}

/** Added p50 and p99 latency and the BFF's req/s against the sandbox direct, for one run. */
function addOverheadFigures(ctx: BenchContext, name: string, how: string, bff: LoadResult, direct: LoadResult): void {
  const failures = bff.failures + direct.failures;
  const note = `${how}${failures > 0 ? `; ${String(failures)} non-2xx/errors` : ""}`;
  ctx.add({
    part: "overhead",
    name: `${name}: added p50`,
    value: bff.p50 - direct.p50,
    unit: "ms",
    note: `BFF ${String(bff.p50)} ms, sandbox direct ${String(direct.p50)} ms; ${note}`,
  });
  ctx.add({
    part: "overhead",
    name: `${name}: added p99`,
    value: bff.p99 - direct.p99,
    unit: "ms",
    note: `BFF ${String(bff.p99)} ms, sandbox direct ${String(direct.p99)} ms; ${note}`,
  });
  ctx.add({
    part: "overhead",
    name: `${name}: BFF req/s`,
    value: Math.round(bff.rps),
    unit: "req/s",
    note: `sandbox direct ${String(Math.round(direct.rps))} req/s (${String(Math.round((bff.rps / direct.rps) * 100))} % of it); ${note}`,
  });
}
