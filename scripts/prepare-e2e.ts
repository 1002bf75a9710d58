// `npm run test:e2e` runs this before Playwright: makes sure Debian's Chromium is there (installing it with apt when
// running as root, as on a fresh machine; otherwise saying how), then builds the app (`next build`) when `.next` is
// missing or older than its sources. Not in Playwright's globalSetup: Playwright starts its webServers (which serve this build) first.
// The lock directory is the one test/app-process.ts uses, so a vitest run building at the same time is waited for.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { PROFILES, serversOf } from "../e2e/profiles";
import { buildState } from "./build-state";
import { chromiumTool, ensureTools } from "./system-packages";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const LOCK = path.join(ROOT, ".next-build-lock");

const LOCK_WAIT_MS = 15 * 60_000;

/** Each run's apps start with an empty mirror: the sandboxes start from their seed again (e2e/profiles.ts). */
function removeMirrors(): void {
  for (const profile of PROFILES)
    for (const suffix of ["", "-wal", "-shm"])
      rmSync(path.join(ROOT, `${serversOf(profile).mirrorDb}${suffix}`), { force: true });
}

async function main(): Promise<number> {
  removeMirrors();
  const tools = ensureTools([chromiumTool()], "[prepare-e2e]");
  if (!tools.ok) {
    console.error(tools.message);
    return 1;
  }
  const startedAt = Date.now();
  let saidWaiting = false;
  for (;;) {
    const state = buildState(ROOT);
    if (state === "current") return 0;
    try {
      mkdirSync(LOCK);
    } catch {
      if (!saidWaiting)
        console.log(`[prepare-e2e] another build holds ${LOCK}; waiting (remove it if no build is running).`);
      saidWaiting = true;
      if (Date.now() - startedAt > LOCK_WAIT_MS) {
        console.error(`[prepare-e2e] ${LOCK} still held after ${LOCK_WAIT_MS / 60_000} min; giving up.`);
        return 1;
      }
      await delay(500);
      continue;
    }
    try {
      if (buildState(ROOT) === "current") return 0;
      console.log(
        `[prepare-e2e] ${state === "missing" ? "no production build yet" : "the sources changed since the last build"}: running next build…`,
      );
      const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, NODE_ENV: "production" },
      });
      if (result.status !== 0) {
        console.error(`[prepare-e2e] next build failed (${result.signal ?? `exit code ${String(result.status)}`}).`);
        return 1;
      }
      return 0;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

process.exitCode = await main();
