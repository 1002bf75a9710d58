/** `npm run sandbox` (serve): open or seed the database, start the server, print where and how to use it. */
import type Database from "better-sqlite3";

import { createConfig, type FaultSettings, type SandboxConfig } from "../config";
import { findKey, SCOPES, verifySecret } from "../db/keys";
import { openDatabase } from "../db/open";
import { addTransactions, DEMO_KEYS, demoCredentials } from "../db/seed";
import { MAX_STATIONS } from "../db/station-catalog";
import { startSandboxServer } from "../server";
import { fraction, int, profileOf, type Values } from "./args";

export async function serve(values: Values, dbPath: string): Promise<number> {
  const { config, port, seedOptions } = serveOptions(values);
  const started = Date.now();
  console.log(`[sandbox] opening ${dbPath}${values.reset ? " (reset)" : ""}…`);
  const opened = openDatabase({ path: dbPath, reset: values.reset ?? false, seed: seedOptions });
  if (opened.seeded)
    console.log(`[sandbox] created and seeded the database in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  else if (Object.keys(seedOptions).length > 0)
    console.warn(
      "[sandbox] the database already exists, so --seed/--transactions/--stations were ignored; add --reset to re-seed",
    );

  const log = values.quiet
    ? undefined
    : (line: string) => {
        console.log(`[sandbox] ${line}`);
      };
  const server = await startSandboxServer({
    db: opened.db,
    config,
    port,
    host: values.host ?? "127.0.0.1",
    ...(log ? { log } : {}),
  });
  console.log(`[sandbox] Fleet Fuel API v1 (${config.profile} profile) at ${server.baseUrl}`);
  console.log(
    `[sandbox] OpenAPI document: ${server.baseUrl}/docs/openapi · budget ${String(config.budget)} requests per key per ${String(config.windowSeconds)} s, ${String(config.failedAuthBudget)} failed key-pair checks per address`,
  );
  await printDemoKey(opened.db, opened.seed);
  const live = startLive(opened.db, int("live", values.live, 1, 86_400));
  stopOnSignals(() => {
    if (live) clearInterval(live);
    return server.close().finally(() => {
      opened.db.close();
    });
  });
  return new Promise<number>(() => undefined); // runs until a signal
}

/** The serve flags (and env) checked and turned into the server's config and the seed's options. */
function serveOptions(values: Values): {
  config: SandboxConfig;
  port: number;
  seedOptions: { seed?: number; transactions?: number; stations?: number };
} {
  const profile = profileOf(values.profile ?? process.env.SANDBOX_PROFILE);
  const port = int("port", values.port ?? process.env.SANDBOX_PORT, 0, 65_535) ?? 4010;
  const seed = int("seed", values.seed, 0, 2 ** 32 - 1);
  const transactions = int("transactions", values.transactions, 0, 5_000_000);
  const stations = int("stations", values.stations, 10, MAX_STATIONS);
  const seedOptions = {
    ...(seed !== undefined ? { seed } : {}),
    ...(transactions !== undefined ? { transactions } : {}),
    ...(stations !== undefined ? { stations } : {}),
  };
  const faults: FaultSettings = {
    latencyMs: int("fault-latency", values["fault-latency"], 0, 600_000) ?? 0,
    errorRate: fraction("fault-error-rate", values["fault-error-rate"]),
    dropRate: fraction("fault-drop-rate", values["fault-drop-rate"]),
    malformedRate: fraction("fault-malformed-rate", values["fault-malformed-rate"]),
    headers: values.faults ?? false,
    rateLimitSeconds: 0,
  };
  const budget = int("budget", values.budget, 1, 1_000_000_000);
  const windowSeconds = int("window-seconds", values["window-seconds"], 1, 86_400);
  const failedAuthBudget = int("failed-auth-budget", values["failed-auth-budget"], 1, 1_000_000_000);
  const tokenTtlSeconds = int("token-ttl-seconds", values["token-ttl-seconds"], 1, 86_400);
  const config = createConfig({
    profile,
    faults,
    control: values.control ?? false,
    ...(budget ? { budget } : {}),
    ...(windowSeconds ? { windowSeconds } : {}),
    ...(failedAuthBudget ? { failedAuthBudget } : {}),
    ...(tokenTtlSeconds ? { tokenTtlSeconds } : {}),
  });
  return { config, port, seedOptions };
}

/** With --live N, a new PFL transaction every N seconds. */
function startLive(db: Database.Database, liveSeconds: number | undefined): NodeJS.Timeout | undefined {
  if (liveSeconds === undefined) return undefined;
  const live = setInterval(() => {
    addTransactions(db, "PFL", 1, Math.floor(Date.now() / 1000));
  }, liveSeconds * 1000);
  console.log(`[sandbox] live: a new PFL transaction every ${String(liveSeconds)} s`);
  return live;
}

/** SIGINT/SIGTERM: close (once) and exit 0. */
function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return; // a second Ctrl-C while closing must not cut the database close short
    stopping = true;
    console.log(`[sandbox] ${signal}: stopping`);
    void close().finally(() => {
      process.exit(0);
    });
  };
  process.on("SIGINT", () => {
    stop("SIGINT");
  });
  process.on("SIGTERM", () => {
    stop("SIGTERM");
  });
}

/** Prints the demo key pair (local demo only), after checking it still matches the database. */
async function printDemoKey(db: Database.Database, seed: number): Promise<void> {
  const label = DEMO_KEYS[0].label;
  const pair = demoCredentials(seed, label);
  const key = findKey(db, pair.keyId);
  if (key?.revokedAt !== null || !(await verifySecret(pair.secret, key.secretHash))) {
    console.log(
      "[sandbox] the demo key is gone or revoked; create one with: npm run sandbox -- keys create --customer PFL",
    );
    return;
  }
  console.log("[sandbox] demo key pair (local sandbox only, derived from the seed; never use in production):");
  console.log(`[sandbox]   key_id  ${pair.keyId}`);
  console.log(`[sandbox]   secret  ${pair.secret}`);
  console.log(`[sandbox]   scopes  ${SCOPES.join(", ")} · customer PFL (Prairie Freight Lines)`);
}
