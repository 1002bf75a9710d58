// A sandbox and an app of their own for a journey that needs settings the shared e2e servers do not have (a small
// request budget), on free loopback ports, stopped by the test. The same processes `npm start` runs, over real HTTP.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { appNodeArgs } from "../scripts/app-heap";
import { freePort } from "../test/net";
import type { Profile } from "./profiles";

const TSX_CLI = "node_modules/tsx/dist/cli.mjs";
const NEXT_BIN = "node_modules/next/dist/bin/next";
const START_TIMEOUT_MS = 90_000;

export interface OwnStack {
  origin: string;
  /** The demo customer's full key on this sandbox. */
  key: { keyId: string; secret: string };
  stop(): Promise<void>;
}

function started(child: ChildProcess, name: string, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const poll = async () => {
      if (child.exitCode !== null) {
        reject(new Error(`${name} exited with code ${String(child.exitCode)}`));
        return;
      }
      if (await ready().catch(() => false)) {
        resolve();
        return;
      }
      if (Date.now() > deadline) {
        reject(new Error(`${name} did not start within ${String(START_TIMEOUT_MS / 1000)} s`));
        return;
      }
      setTimeout(() => void poll(), 200);
    };
    void poll();
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Starts a freshly seeded sandbox of `profile` and the built app on it, both with `budget` requests per `windowSeconds`. */
export async function startOwnStack(profile: Profile, budget: number, windowSeconds: number): Promise<OwnStack> {
  const dir = mkdtempSync(join(tmpdir(), "ffd-e2e-stack-"));
  const db = join(dir, "sandbox.db");
  const [sandboxPort, appPort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const sandbox = spawn(
      process.execPath,
      [
        TSX_CLI,
        "sandbox/cli.ts",
        "--port",
        String(sandboxPort),
        "--db",
        db,
        "--reset",
        "--profile",
        profile,
        "--budget",
        String(budget),
        "--window-seconds",
        String(windowSeconds),
        "--quiet",
      ],
      { stdio: "ignore" },
    );
    children.push(sandbox);
    await started(
      sandbox,
      "the sandbox",
      async () => (await fetch(`http://127.0.0.1:${String(sandboxPort)}/healthz`)).ok,
    );
    const pairs = JSON.parse(
      execFileSync(process.execPath, [TSX_CLI, "sandbox/cli.ts", "keys", "demo", "--json", "--db", db], {
        encoding: "utf8",
      }),
    ) as { label: string; key_id: string; secret: string }[];
    const full = pairs.find((p) => p.label === "demo-full");
    if (full === undefined) throw new Error("the sandbox has no demo-full key");
    const app = spawn(
      process.execPath,
      [...appNodeArgs(), NEXT_BIN, "start", "-p", String(appPort), "-H", "127.0.0.1"],
      {
        stdio: "ignore",
        env: {
          ...process.env,
          NODE_ENV: "production",
          FLEET_API_BASE_URL: `http://127.0.0.1:${String(sandboxPort)}/api/v1`,
          SANDBOX: "1",
          SESSION_SECRET: "e2e-only-session-secret-0123456789abcdef",
          FLEET_API_BUDGET: String(budget),
          FLEET_API_WINDOW_SECONDS: String(windowSeconds),
          LOG_LEVEL: "warn",
          // These stacks test the upstream's request budget (exports and price checks sharing it): a mirror would
          // answer the export without the upstream and its sync would spend the small budget.
          MIRROR_ENABLED: "false",
        },
      },
    );
    children.push(app);
    const origin = `http://127.0.0.1:${String(appPort)}`;
    // Any HTTP answer (401 without a session) means the app is up.
    await started(app, "the app", async () => (await fetch(`${origin}/api/session`)).status > 0);
    return { origin, key: { keyId: full.key_id, secret: full.secret }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
