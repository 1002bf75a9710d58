import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll } from "vitest";

import { type AppProcess, mirrorAppEnv, startApp } from "./app-process";
import { type Recorded, signInAndSync, TestBrowser } from "./browser";
import { type SandboxProcess, startSandboxProcess } from "./sandbox-process";

export interface MirrorAppStack {
  upstream: SandboxProcess;
  app: AppProcess;
  /** Signed in with the sandbox's demo-full pair, the mirror synced ("ready", nothing running). */
  browser: TestBrowser;
  /** Every response the browser received (for scans). */
  recorded: Recorded[];
}

/**
 * For the calling describe block: the sandbox of `profile` as a process over real HTTP, the built app with its mirror
 * on (SQLite, in a folder of its own) and `env` on top, and a browser signed in whose mirror has synced; all stopped
 * after the block. The HTTP tests of the mirror-backed routes and pages share it.
 */
export function useMirrorAppStack(
  profile: "primary" | "alternative",
  env: Record<string, string> = {},
): () => MirrorAppStack {
  let stack: MirrorAppStack | undefined;
  let upstream: SandboxProcess | undefined;
  let app: AppProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), "ffd-mirror-app-"));
  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    app = await startApp({ ...mirrorAppEnv(upstream.baseUrl, dir), ...env });
    const recorded: Recorded[] = [];
    const browser = new TestBrowser(app.origin, recorded);
    await signInAndSync(browser, upstream.keys["demo-full"]);
    stack = { upstream, app, browser, recorded };
  }, 240_000);
  afterAll(async () => {
    // Both guarded: when a start failed, the other process must still be stopped.
    await app?.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (stack === undefined) throw new Error("the mirror app stack is not started (use it inside its describe block)");
    return stack;
  };
}
