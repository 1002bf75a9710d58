/**
 * npm run bench:bff [-- --budget 60 --export-rows 25000]
 *
 * The BFF's economy and overhead, measured over real HTTP: the built app (`next start`) against a sandbox process
 * whose request log counts upstream calls. Prints: upstream calls for login + overview, for a reload within the
 * cache TTL and for opening the map; a 25,000-row CSV export at the real budget (time, rows/min vs the bound, the
 * app's peak RSS growth); and autocannon p50/p99 of a cached BFF route against the sandbox direct. Asserts nothing.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({ options: { budget: { type: "string", default: "60" }, "export-rows": { type: "string", default: "25000" } } });
const CLI = ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts"];
const SANDBOX_PORT = 4096;
const APP_PORT = 3096;
const db = `.data/bench-client-${values["export-rows"]}.db`;

function start(cmd: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, cmd, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  return { child, output: () => out };
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

const rssMb = (pid: number | undefined) => {
  if (pid === undefined || !existsSync(`/proc/${String(pid)}/status`)) return 0;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, "utf8"));
  return m?.[1] ? Number(m[1]) / 1024 : 0;
};

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  const seed = existsSync(db) ? [] : ["--transactions", values["export-rows"]];
  const sandbox = start([...CLI, "--db", db, "--port", String(SANDBOX_PORT), "--budget", values.budget, ...seed], {});
  await waitFor(`http://127.0.0.1:${String(SANDBOX_PORT)}/healthz`);
  const upstreamCalls = () => [...sandbox.output().matchAll(/\[sandbox\] (GET|POST) \/api\/v1\//g)].length;
  const pairs = JSON.parse(execFileSync(process.execPath, [...CLI, "keys", "demo", "--json", "--db", db]).toString()) as { label: string; key_id: string; secret: string }[];
  const full = pairs.find((p) => p.label === "demo-full");
  if (!full) throw new Error("no demo key");
  const app = start(["node_modules/next/dist/bin/next", "start", "-p", String(APP_PORT), "-H", "127.0.0.1"], {
    FLEET_API_BASE_URL: `http://127.0.0.1:${String(SANDBOX_PORT)}/api/v1`,
    FLEET_API_BUDGET: values.budget,
    SESSION_SECRET: "bench-session-secret-long-enough-0123456789abcdef",
    LOG_LEVEL: "warn",
  });
  try {
    const origin = `http://127.0.0.1:${String(APP_PORT)}`;
    await waitFor(`${origin}/api/session`);
    const base = upstreamCalls();
    const login = await fetch(`${origin}/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin, "X-Requested-With": "XMLHttpRequest" },
      body: JSON.stringify({ keyId: full.key_id, secret: full.secret }),
    });
    const cookie = (login.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const get = (path: string) => fetch(origin + path, { headers: { Cookie: cookie } }).then((r) => r.arrayBuffer());
    const afterLogin = upstreamCalls();
    const overview = () => Promise.all([get("/api/account"), get("/api/transactions/summary"), get("/api/transactions?limit=10")]);
    await overview();
    const afterOverview = upstreamCalls();
    await overview();
    const afterReload = upstreamCalls();
    await get("/api/locations?all=1");
    const afterMap = upstreamCalls();
    await get("/api/locations?all=1");
    const afterMapAgain = upstreamCalls();
    console.log(`upstream calls: login ${String(afterLogin - base)}, overview ${String(afterOverview - afterLogin)} (account, 30-day summary, latest 10), reload within TTL ${String(afterReload - afterOverview)}, map ${String(afterMap - afterReload)}, map again ${String(afterMapAgain - afterMap)}`);

    // Export at the real budget. The budget window is shared with what came before, as in real use.
    const rssBefore = rssMb(app.child.pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(app.child.pid))), 100);
    const started = performance.now();
    const res = await fetch(`${origin}/api/transactions/export?format=csv`, { headers: { Cookie: cookie } });
    let bytes = 0;
    let rows = -2;
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      bytes += chunk.value.byteLength;
      for (const b of chunk.value) if (b === 10) rows++;
    }
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const bound = (Math.ceil(rows / 200) / Number(values.budget)) * 60;
    console.log(`export: ${String(rows)} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s = ${Math.round((rows / seconds) * 60).toLocaleString("en-US")} rows/min; bound at ${values.budget}/min: ${bound.toFixed(1)} s (${((bound / seconds) * 100).toFixed(0)} %); app RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB (+${(rssPeak - rssBefore).toFixed(0)} MB)`);

    // Overhead of a cached BFF route vs the sandbox direct.
    const token = (await (await fetch(`http://127.0.0.1:${String(SANDBOX_PORT)}/api/v1/auth`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key_id: full.key_id, secret: full.secret }) })).json()) as { access_token: string };
    await new Promise((r) => setTimeout(r, 61_000)); // let the budget window clear so direct calls are not 429s
    const bff = await autocannon({ url: `${origin}/api/account`, headers: { Cookie: cookie }, connections: 1, duration: 5 });
    const direct = await autocannon({ url: `http://127.0.0.1:${String(SANDBOX_PORT)}/api/v1/account-details`, headers: { Authorization: `Bearer ${token.access_token}` }, connections: 1, amount: Number(values.budget) - 5 });
    console.log(`GET /api/account (cached BFF): p50 ${String(bff.latency.p50)} ms, p99 ${String(bff.latency.p99)} ms, ${String(Math.round(bff.requests.average))} req/s, non-2xx ${String(bff.non2xx)}`);
    console.log(`GET /account-details (sandbox direct, ${String(Number(values.budget) - 5)} requests within the budget): p50 ${String(direct.latency.p50)} ms, p99 ${String(direct.latency.p99)} ms, non-2xx ${String(direct.non2xx)}`);
  } finally {
    app.child.kill("SIGTERM");
    sandbox.child.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
