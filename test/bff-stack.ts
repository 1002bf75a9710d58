// What the BFF's tests over real HTTP share (lib/bff/*/bff-*.test.ts, lib/bff/stations/station-prices*.test.ts): the app's
// test settings, the sandbox's request log read back, and a sandbox plus `next start` of the built app per describe
// block. Each test file starts its own pair: vitest runs files in parallel workers, and a test that moves the app's
// clock must not move it under another file's tests.
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect } from "vitest";

import { type AppProcess, startApp } from "./app-process";
import { type Recorded, TestBrowser } from "./browser";
import { type SandboxProcess, type SandboxProfile, startSandboxProcess } from "./sandbox-process";

/** Both sandbox profiles: the HTTP tests run once against each. */
export const PROFILES = ["primary", "alternative"] as const;
export const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
export const TEST_HOOKS_TOKEN = "test-hooks-token-0123456789abcdef";
export const MINUTE = 60_000;

/** Requests the sandbox logged (with log: true), as "GET /api/v1/… 200" paths with their status. */
export const upstreamRequests = (sb: SandboxProcess) =>
  [...sb.output().matchAll(/\[sandbox\] (GET|POST) (\/api\/v1\/\S*) (\d{3})/g)].map(
    (m) => `${m[1] ?? ""} ${m[2] ?? ""} ${m[3] ?? ""}`,
  );
/** Upstream transaction list requests (the sandbox logs paths without their query). */
export const isListCall = (r: string) => /^GET \/api\/v1\/transactions \d{3}$/.test(r);
/** Upstream station detail requests. */
export const isDetailCall = (r: string) => /^GET \/api\/v1\/locations\/[^/\s]+ \d{3}$/.test(r);
/** The sandbox prints its log line as it answers: give the pipe a moment before counting (not a timing assertion). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

/** Station ids straight from the sandbox's database (the catalog is the same for every customer). */
export function stationIds(sb: SandboxProcess, count: number): string[] {
  const db = new Database(sb.dbPath, { readonly: true });
  try {
    return (db.prepare("SELECT id FROM stations ORDER BY loc_num LIMIT ?").all(count) as { id: string }[]).map(
      (r) => r.id,
    );
  } finally {
    db.close();
  }
}

/** A sandbox (logging its requests) and the app in front of it, started before a describe block's tests. */
class BffStack {
  #upstream: SandboxProcess | undefined;
  #app: AppProcess | undefined;
  /** Every response the stack's browsers received, for the secret scan. */
  readonly recorded: Recorded[] = [];

  get upstream(): SandboxProcess {
    if (this.#upstream === undefined) throw new Error("the sandbox is not started: use the stack inside its tests");
    return this.#upstream;
  }

  get started(): boolean {
    return this.#upstream !== undefined && this.#app !== undefined;
  }

  get app(): AppProcess {
    if (this.#app === undefined) throw new Error("the app is not started: use the stack inside its tests");
    return this.#app;
  }

  async start(profile: SandboxProfile): Promise<void> {
    this.#upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    const demo = this.#upstream.keys["demo-full"];
    this.#app = await startApp({
      FLEET_API_BASE_URL: this.#upstream.baseUrl,
      SESSION_SECRET,
      BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
      FLEET_API_BUDGET: "100000",
      DEMO_KEY_ID: demo.keyId,
      DEMO_KEY_SECRET: demo.secret,
    });
  }

  async stop(): Promise<void> {
    // Both guarded: when a start failed, the other process must still be stopped.
    await this.#app?.stop();
    await this.#upstream?.stop();
  }

  /** A browser whose responses are recorded for the secret scan. */
  readonly browser = () => new TestBrowser(this.app.origin, this.recorded);

  /** A browser signed in with one of the sandbox's demo keys. */
  readonly loggedIn = async (label: keyof SandboxProcess["keys"] = "demo-full") => {
    const b = this.browser();
    const res = await b.login(this.upstream.keys[label].keyId, this.upstream.keys[label].secret);
    expect(res.status).toBe(200);
    return b;
  };

  /** Moves the app's clock (lib/bff/http/test-hooks.ts) by `offsetMs` from the real time. */
  readonly setClock = async (offsetMs: number) => {
    const res = await fetch(`${this.app.origin}/api/test-hooks/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": TEST_HOOKS_TOKEN },
      body: JSON.stringify({ offsetMs }),
    });
    expect(res.status).toBe(204);
  };

  /** No key secret, bearer token or key id in any recorded response or in the app's log. */
  expectNoSecretLeaked(): void {
    const secrets = Object.values(this.upstream.keys).map((k) => k.secret);
    const everything = this.recorded.map((r) => `${r.headers}\n${r.body}`).join("\n") + this.app.output();
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/fft_[A-Za-z0-9_-]{20,}/);
    for (const k of Object.values(this.upstream.keys)) expect(this.app.output()).not.toContain(k.keyId);
  }
}

/**
 * A stack for the calling describe block: started before its tests, stopped after them. At the end its responses and
 * log are scanned for secrets, so the scan covers every file of the split suite, not only the one with the named test.
 */
export function useBffStack(profile: SandboxProfile): BffStack {
  const stack = new BffStack();
  beforeAll(() => stack.start(profile), 240_000);
  afterAll(async () => {
    try {
      if (stack.started) stack.expectNoSecretLeaked();
    } finally {
      await stack.stop();
    }
  });
  return stack;
}
