// `npm start`: the one command that runs the whole product on a fresh machine.
//
// The app listens on 127.0.0.1 (this machine only) unless HOST says otherwise: exposing it (HOST=0.0.0.0) is for a
// deployment behind a TLS-terminating proxy, with SESSION_SECRET etc. set (README "Security: what a deployment must
// provide"). The sandbox always listens on 127.0.0.1.
//
// Without FLEET_API_BASE_URL it starts the reference sandbox (sandbox/cli.ts) and points the app at it; with it, the app
// talks to that upstream and no sandbox runs. The app is built once when no production build exists, then served with
// `next start`. Ctrl-C / SIGTERM stops everything; if one child dies, the other is stopped and we exit non-zero.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

import nextEnv from "@next/env";

import { appNodeArgs } from "./app-heap";
import { buildState } from "./build-state";
import {
  describeExit,
  isShuttingDown,
  lifecycle,
  onStopSignal,
  shutdown,
  spawnChild,
  spawnService,
  STOP_SIGNALS,
} from "./start/children";
import { browserHost, probeHost, readConfig } from "./start/config";
import { EXIT_FAILURE, log, logError } from "./start/log";
import { NEXT_BIN, ROOT, SANDBOX_ENTRY, TSX_CLI } from "./start/paths";
import { assertPortFree, waitForHttp } from "./start/readiness";

// The sandbox's first start seeds its SQLite database, which takes a while on a slow machine.
const SANDBOX_READY_TIMEOUT_MS = 120_000;
const APP_READY_TIMEOUT_MS = 60_000;

function requireFile(file: string, hint: string): void {
  if (!existsSync(file)) {
    logError(`Missing ${path.relative(ROOT, file)}. ${hint}`);
    process.exit(EXIT_FAILURE);
  }
}

async function startSandbox(port: number): Promise<string> {
  requireFile(SANDBOX_ENTRY, "The sandbox is part of this repository; is the checkout complete?");
  await assertPortFree(port, "SANDBOX_PORT");
  log(`FLEET_API_BASE_URL is not set: starting the sandbox on port ${port}…`);
  spawnService("sandbox", [TSX_CLI, SANDBOX_ENTRY, "--port", String(port)], process.env);
  await waitForHttp({
    url: `http://127.0.0.1:${port}/healthz`,
    what: "sandbox",
    timeoutMs: SANDBOX_READY_TIMEOUT_MS,
    isReady: (status) => status === 200,
    onProgress: (seconds) => {
      log(`Waiting for the sandbox (seeding its database on first start)… ${seconds} s`);
    },
  });
  const upstream = `http://127.0.0.1:${port}/api/v1`;
  log(`Sandbox ready; the app uses ${upstream} (the sandbox printed its demo key pair above).`);
  return upstream;
}

/**
 * The sandbox's demo key pair (demo-full), for the login page's "Sign in with the demo key" (the app keeps the secret
 * on its server). Read with the sandbox's own CLI from the database it serves; undefined (with a note) if that fails.
 */
function readDemoKey(): { keyId: string; secret: string } | undefined {
  const result = spawnSync(process.execPath, [TSX_CLI, SANDBOX_ENTRY, "keys", "demo", "--json"], {
    cwd: ROOT,
    env: process.env,
    encoding: "utf8",
    timeout: 60_000,
  });
  try {
    const rows = JSON.parse(result.stdout) as unknown;
    if (Array.isArray(rows)) {
      for (const row of rows as unknown[]) {
        if (typeof row !== "object" || row === null) continue;
        const { label, key_id: keyId, secret } = row as Record<string, unknown>;
        if (label === "demo-full" && typeof keyId === "string" && typeof secret === "string") return { keyId, secret };
      }
    }
  } catch {
    // reported below
  }
  log("Could not read the sandbox's demo key; the login page will not offer it (sign in with the pair printed above).");
  return undefined;
}

async function buildIfNeeded(env: NodeJS.ProcessEnv): Promise<void> {
  const state = buildState(ROOT);
  if (state === "current") return;
  log(
    state === "missing"
      ? "No production build yet: running next build…"
      : "The sources changed since the last build: running next build…",
  );
  const build = spawnChild("build", [NEXT_BIN, "build"], env);
  const info = await build.exited;
  lifecycle.signal.throwIfAborted();
  if (info.code !== 0) throw new Error(`next build failed (${describeExit(info)}); see its output above.`);
}

async function main(): Promise<void> {
  // .env, .env.local and .env.production(.local), with Next's precedence; variables already set win. Loaded here too so
  // PORT, SANDBOX_* and FLEET_API_BASE_URL from those files reach the launcher and the sandbox, not only the app.
  nextEnv.loadEnvConfig(ROOT, false, { info: () => undefined, error: console.error });
  const config = readConfig(process.env);
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      onStopSignal(signal);
    });
  }
  requireFile(NEXT_BIN, "Run npm install first.");
  requireFile(TSX_CLI, "Run npm install first.");

  let upstream = config.upstream;
  const demoEnv: Record<string, string> = {};
  if (upstream === undefined) {
    upstream = await startSandbox(config.sandboxPort);
    const demo = process.env.DEMO_KEY_ID === undefined ? readDemoKey() : undefined;
    if (demo !== undefined) Object.assign(demoEnv, { DEMO_KEY_ID: demo.keyId, DEMO_KEY_SECRET: demo.secret });
  } else {
    log(`Using the Fleet Fuel API at ${upstream} (from FLEET_API_BASE_URL); the sandbox is not started.`);
  }

  await assertPortFree(config.appPort, "PORT");
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...demoEnv,
    FLEET_API_BASE_URL: upstream,
    PORT: String(config.appPort),
  };
  await buildIfNeeded(appEnv);

  spawnService(
    "app",
    [...appNodeArgs(appEnv), NEXT_BIN, "start", "-p", String(config.appPort), "-H", config.appHost],
    appEnv,
  );
  await waitForHttp({
    url: `http://${probeHost(config.appHost)}:${config.appPort}/`,
    what: "app",
    timeoutMs: APP_READY_TIMEOUT_MS,
    // Any HTTP answer means the server is up; what a page returns is the app's business.
    isReady: () => true,
  });
  const exposed = config.appHost === "0.0.0.0" || config.appHost === "::";
  log(
    `Dashboard: http://${browserHost(config.appHost)}:${config.appPort}${exposed ? ` (listening on every interface: HOST=${config.appHost})` : ""}`,
  );
}

main().catch((error: unknown) => {
  // Once a shutdown is under way, an aborted wait is expected and the shutdown owns the exit.
  if (isShuttingDown()) return;
  const message = error instanceof Error ? error.message : String(error);
  void shutdown({ exitCode: EXIT_FAILURE, signal: "SIGTERM", reason: message, isFromSignal: false });
});
