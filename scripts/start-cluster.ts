// `npm run start:cluster -- --instances 3`: several instances of the dashboard behind one address, on one machine, to
// see what a scaled-out deployment does (docs/several-instances.md).
//
// Starts what is missing, from Debian's packages: redis-server (unless REDIS_URL is given) and PostgreSQL (unless
// DATABASE_URL is given), with their data under CLUSTER_DATA_DIR (default .data/cluster/) and passwords generated
// there (0600, passed to the instances in REDIS_URL and DATABASE_URL); the sandbox (unless
// FLEET_API_BASE_URL is given), as `npm start` does; N app instances on the ports after PORT (PORT+1 … PORT+N), all
// sharing Redis, PostgreSQL and one session secret; and haproxy on HOST:PORT (default 127.0.0.1:3000), round robin over
// the instances with a liveness check on /api/livez. Ctrl-C / SIGTERM stops everything; if one child dies, the others
// are stopped and we exit non-zero (./start/children.ts).
import path from "node:path";

import nextEnv from "@next/env";

import { isShuttingDown, onStopSignal, shutdown, STOP_SIGNALS } from "./start/children";
import {
  prepareDataDir,
  sharedSessionSecret,
  startHaproxy,
  startPostgres,
  startRedis,
  withoutPassword,
} from "./start/cluster-services";
import { browserHost, probeHost, readConfig } from "./start/config";
import { EXIT_BAD_CONFIG, EXIT_FAILURE, log, logError } from "./start/log";
import { NEXT_BIN, ROOT, TSX_CLI } from "./start/paths";
import { assertPortFree } from "./start/readiness";
import { buildIfNeeded, readDemoKey, requireFile, startAppService, startSandbox } from "./start/services";
import { ensureTools, HAPROXY, POSTGRESQL, REDIS_SERVER, type SystemTool } from "./system-packages";

const DEFAULT_INSTANCES = 3;
const MAX_INSTANCES = 16;

/** `--instances N` (or `--instances=N`), 1 to 16; a clear message and exit code 2 for anything else. */
function parseInstances(argv: readonly string[]): number | string {
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--instances") raw = argv[++i] ?? "";
    else if (arg.startsWith("--instances=")) raw = arg.slice("--instances=".length);
    else return `Unknown argument ${JSON.stringify(arg)}; usage: npm run start:cluster -- --instances N`;
  }
  if (raw === undefined) return DEFAULT_INSTANCES;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_INSTANCES)
    return `--instances must be a whole number from 1 to ${String(MAX_INSTANCES)}; got ${JSON.stringify(raw)}.`;
  return n;
}

async function main(): Promise<void> {
  nextEnv.loadEnvConfig(ROOT, false, { info: () => undefined, error: console.error });
  const config = readConfig(process.env);
  const instances = parseInstances(process.argv.slice(2));
  if (typeof instances === "string") {
    logError(instances);
    process.exit(EXIT_BAD_CONFIG);
  }
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      onStopSignal(signal);
    });
  }
  requireFile(NEXT_BIN, "Run npm install first.");
  requireFile(TSX_CLI, "Run npm install first.");
  // Given (and not empty): used as they are; otherwise started here.
  const givenRedis = process.env.REDIS_URL?.trim() ?? "";
  const givenDatabase = process.env.DATABASE_URL?.trim() ?? "";
  const needed: SystemTool[] = [HAPROXY];
  if (givenRedis === "") needed.push(REDIS_SERVER);
  if (givenDatabase === "") needed.push(POSTGRESQL);
  const tools = ensureTools(needed, "[start]");
  if (!tools.ok) throw new Error(tools.message);

  const givenDir = process.env.CLUSTER_DATA_DIR?.trim() ?? "";
  const dataDir = path.resolve(ROOT, givenDir === "" ? ".data/cluster" : givenDir);
  // Owner-only (0700; 0710 with the group postgres where PostgreSQL runs as that user): its files are 0600.
  prepareDataDir(dataDir, givenDatabase === "");
  const instancePorts = Array.from({ length: instances }, (_, i) => config.appPort + 1 + i);
  for (const port of [config.appPort, ...instancePorts])
    await assertPortFree(port, port === config.appPort ? "PORT" : "PORT+n");

  // Started here with passwords generated into the data folder (0600): a loopback port is open to every local user.
  const redisUrl =
    givenRedis === ""
      ? await startRedis(path.join(dataDir, "redis"), path.join(dataDir, "redis-password"))
      : givenRedis;
  const databaseUrl =
    givenDatabase === ""
      ? await startPostgres(path.join(dataDir, "postgres"), path.join(dataDir, "postgres-password"))
      : givenDatabase;
  log(
    `Shared state: ${givenRedis === "" ? withoutPassword(redisUrl) : "REDIS_URL"}; mirror: ${givenDatabase === "" ? withoutPassword(databaseUrl) : "DATABASE_URL"} (passwords in ${dataDir}).`,
  );

  let upstream = config.upstream;
  // The sandbox's conveniences (demo key, generated SESSION_SECRET, plain http) need SANDBOX=1: set here when this
  // launcher starts the sandbox itself, never inferred from a loopback FLEET_API_BASE_URL (lib/bff/platform/config.ts).
  const sandboxEnv: Record<string, string> = {};
  if (upstream === undefined) {
    upstream = await startSandbox(config.sandboxPort);
    sandboxEnv.SANDBOX = "1";
    const demo = process.env.DEMO_KEY_ID === undefined ? readDemoKey() : undefined;
    if (demo !== undefined) Object.assign(sandboxEnv, { DEMO_KEY_ID: demo.keyId, DEMO_KEY_SECRET: demo.secret });
  } else {
    log(`Using the Fleet Fuel API at ${upstream} (from FLEET_API_BASE_URL); the sandbox is not started.`);
  }

  const sharedEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...sandboxEnv,
    FLEET_API_BASE_URL: upstream,
    REDIS_URL: redisUrl,
    DATABASE_URL: databaseUrl,
    MIRROR_ENABLED: process.env.MIRROR_ENABLED ?? "true",
    SESSION_SECRET: sharedSessionSecret(path.join(dataDir, "session-secret")),
    // The instances listen on loopback behind haproxy, which sets X-Forwarded-For: per-address limits see the browser.
    TRUST_PROXY: process.env.TRUST_PROXY ?? "true",
  };
  await buildIfNeeded(sharedEnv);
  // One at a time: the first migrates the mirror's PostgreSQL schema before the others open it.
  for (const [i, port] of instancePorts.entries()) {
    await startAppService(`app${String(i + 1)}`, "127.0.0.1", port, {
      ...sharedEnv,
      PORT: String(port),
      // Each instance its own local file (heartbeat); what instances share is in Redis and PostgreSQL.
      SESSION_DB: path.join(dataDir, `sessions-${String(i + 1)}.db`),
    });
    log(`Instance app${String(i + 1)} ready on 127.0.0.1:${String(port)}.`);
  }
  const bind = { host: config.appHost, port: config.appPort };
  await startHaproxy(
    path.join(dataDir, "haproxy.cfg"),
    bind,
    instancePorts,
    `http://${probeHost(config.appHost)}:${String(config.appPort)}/api/livez`,
  );
  log(
    `Dashboard (haproxy, round robin over ${String(instances)} instance${instances === 1 ? "" : "s"}): http://${browserHost(config.appHost)}:${String(config.appPort)}`,
  );
}

main().catch((error: unknown) => {
  if (isShuttingDown()) return;
  const message = error instanceof Error ? error.message : String(error);
  void shutdown({ exitCode: EXIT_FAILURE, signal: "SIGTERM", reason: message, isFromSignal: false });
});
