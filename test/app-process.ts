import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { appNodeArgs } from "@/scripts/app-heap";
import { buildState } from "@/scripts/build-state";

import { freePort } from "./net";

const ROOT = process.cwd();
const NEXT = "node_modules/next/dist/bin/next";

/** Builds the app once when the build is missing or older than its sources (a lock keeps parallel test files out of each other's way). */
export async function ensureBuilt(): Promise<void> {
  const lock = `${ROOT}/.next-build-lock`;
  for (;;) {
    if (buildState(ROOT) === "current") return;
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (buildState(ROOT) !== "current") {
        try {
          execFileSync(process.execPath, [NEXT, "build"], {
            stdio: "pipe",
            env: { ...process.env, NODE_ENV: "production" },
          });
        } catch (error) {
          const e = error as { stdout?: Buffer; stderr?: Buffer };
          throw new Error(`next build failed:\n${e.stdout?.toString() ?? ""}\n${e.stderr?.toString() ?? ""}`);
        }
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface AppProcess {
  origin: string;
  /** The `next start` process (for memory figures). */
  pid: number | undefined;
  output: () => string;
  stop(): Promise<void>;
}

/** A test-only cookie password (iron-session needs at least 32 characters). */
export const TEST_SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";

/**
 * The environment of an app with its mirror on, over `upstreamUrl`, its files in `dir` (a budget no test waits for).
 */
export function mirrorAppEnv(upstreamUrl: string, dir: string): Record<string, string> {
  return {
    FLEET_API_BASE_URL: upstreamUrl,
    SESSION_SECRET: TEST_SESSION_SECRET,
    FLEET_API_BUDGET: "100000",
    MIRROR_ENABLED: "true",
    MIRROR_PATH: join(dir, "mirror.db"),
    SESSION_DB: join(dir, "sessions.db"),
  };
}

/** The built dashboard (`next start`) over real HTTP, with its environment. */
export async function startApp(env: Record<string, string>): Promise<AppProcess> {
  await ensureBuilt();
  const firstPort = await freePort();
  // The mirror's background sync makes upstream calls of its own, which the tests and benches of the upstream economy
  // would count: an app under test runs without it unless `env` turns it on (MIRROR_ENABLED=true, as
  // lib/bff/sync/sync-api.test.ts does), and then with a mirror file of its own (test files run in parallel against
  // sandboxes whose data differ).
  const mirrorDir = mkdtempSync(join(tmpdir(), "ffd-app-mirror-"));
  const appEnv = {
    ...process.env,
    NODE_ENV: "production" as const,
    LOG_LEVEL: "info",
    MIRROR_ENABLED: "false",
    MIRROR_PATH: join(mirrorDir, "mirror.db"),
    // Its own signed-out-sessions file too: test files run side by side (vitest.config.ts), and the default
    // `.data/sessions.db` of the checkout would make apps of other files see each other (instance heartbeats) and
    // narrow `.data` under scripts/start.test.ts. A test of a restart passes SESSION_DB (a file kept across both).
    SESSION_DB: join(mirrorDir, "sessions.db"),
    // The tests' upstream is the sandbox (or a loopback stand-in for its faults): its conveniences (test hooks, the
    // demo key, plain http) need SANDBOX=1, as `npm start` sets it. A test of the other side passes SANDBOX: "".
    SANDBOX: "1",
    ...env,
  };
  // A free port can be taken by another test file's server between freePort() and the app's listen (the files run
  // side by side): the app then exits with EADDRINUSE, and the other server may answer meanwhile. So a 404 on
  // /api/session (never the app's answer) is not taken for the app, and a lost port is tried again with another.
  let started: Extract<SpawnResult, { kind: "started" }> | undefined;
  for (let attempt = 1; started === undefined; attempt++) {
    const port = attempt === 1 ? firstPort : await freePort();
    const result = await spawnApp(appEnv, port);
    if (result.kind === "started") started = result;
    else if (!result.portTaken || attempt >= 3) throw new Error(result.message);
  }
  const { child, origin, output } = started;
  return {
    origin,
    pid: child.pid,
    output,
    stop: async () => {
      // A child killed by a signal (a test's SIGKILL) has exited too: waiting for its exit again would hang.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(mirrorDir, { recursive: true, force: true });
    },
  };
}

type SpawnResult =
  | { kind: "started"; child: ChildProcess; origin: string; output: () => string }
  | { kind: "failed"; portTaken: boolean; message: string };

/** `next start` on `port`, once it answers as the app does. */
async function spawnApp(appEnv: NodeJS.ProcessEnv, port: number): Promise<SpawnResult> {
  // The same heap cap as `npm start` (scripts/app-heap.ts): the tests and the bench measure the app as it runs.
  const child: ChildProcess = spawn(
    process.execPath,
    [...appNodeArgs(appEnv), NEXT, "start", "-p", String(port), "-H", "127.0.0.1"],
    { env: appEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const origin = `http://127.0.0.1:${String(port)}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null)
      return { kind: "failed", portTaken: output.includes("EADDRINUSE"), message: `the app exited:\n${output}` };
    try {
      const res = await fetch(`${origin}/api/session`);
      await res.body?.cancel();
      if (res.status !== 404) return { kind: "started", child, origin, output: () => output };
    } catch {
      // not listening yet
    }
    if (i > 300) {
      child.kill("SIGKILL");
      return { kind: "failed", portTaken: false, message: `the app did not start:\n${output}` };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
