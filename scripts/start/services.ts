/** What `npm start` and `npm run start:cluster` both run: the sandbox, its demo key, the build when stale. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

import { ensurePrivateDir } from "../../lib/private-files";
import { appNodeArgs } from "../app-heap";
import { buildState } from "../build-state";
import { describeExit, lifecycle, spawnChild, spawnService } from "./children";
import { probeHost } from "./config";
import { EXIT_FAILURE, log, logError } from "./log";
import type { LogSink } from "./log-sink";
import { NEXT_BIN, ROOT, SANDBOX_ENTRY, TSX_CLI } from "./paths";
import { assertPortFree, waitForHttp } from "./readiness";

// The sandbox's first start seeds its SQLite database, which takes a while on a slow machine.
const SANDBOX_READY_TIMEOUT_MS = 120_000;

export function requireFile(file: string, hint: string): void {
  if (!existsSync(file)) {
    logError(`Missing ${path.relative(ROOT, file)}. ${hint}`);
    process.exit(EXIT_FAILURE);
  }
}

export async function startSandbox(port: number, sink?: LogSink): Promise<string> {
  requireFile(SANDBOX_ENTRY, "The sandbox is part of this repository; is the checkout complete?");
  await assertPortFree(port, "SANDBOX_PORT");
  log(`FLEET_API_BASE_URL is not set: starting the sandbox on port ${port}…`);
  // The sandbox makes `.data/` for its database (SANDBOX_DB) first: owner-only from the start, as the app wants it.
  ensurePrivateDir(path.join(ROOT, ".data"), { warn: log });
  spawnService("sandbox", [TSX_CLI, SANDBOX_ENTRY, "--port", String(port)], process.env, sink ? { sink } : {});
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
  log(`Sandbox ready; the app uses ${upstream}.`);
  return upstream;
}

/**
 * The sandbox's demo key pair (demo-full), for the login page's "Sign in with the demo key" (the app keeps the secret
 * on its server). Read with the sandbox's own CLI from the database it serves; undefined (with a note) if that fails.
 */
export function readDemoKey(): { keyId: string; secret: string } | undefined {
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

export async function buildIfNeeded(env: NodeJS.ProcessEnv): Promise<void> {
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

const APP_READY_TIMEOUT_MS = 60_000;

/** `next start` of the built app on `host:port` (same heap cap as every app run), resolved once it answers HTTP. */
export async function startAppService(
  name: string,
  host: string,
  port: number,
  env: NodeJS.ProcessEnv,
  sink?: LogSink,
): Promise<void> {
  spawnService(
    name,
    [...appNodeArgs(env), NEXT_BIN, "start", "-p", String(port), "-H", host],
    env,
    sink ? { sink } : {},
  );
  await waitForHttp({
    url: `http://${probeHost(host)}:${String(port)}/`,
    what: name,
    timeoutMs: APP_READY_TIMEOUT_MS,
    // Any HTTP answer means the server is up; what a page returns is the app's business.
    isReady: () => true,
  });
}
