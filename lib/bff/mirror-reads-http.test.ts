import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { type AppProcess, mirrorAppEnv, startApp } from "@/test/app-process";
import { TEST_HOOKS_TOKEN } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf, type Recorded, signInAndSync, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import type { OffThreadStats } from "./off-thread/pool";

// Issue 25 item 7 over real HTTP against the built app (its mirror on SQLite, synced from the sandbox), both profiles:
// a session's fourth mirror read is a 429 with Retry-After and a sentence while three are held in flight (the test
// gate, POST /api/test-hooks/reads), /api/livez answers meanwhile, and the exceptions are judged by the worker pool of
// the built app (its counters, through the same hook). Order and outcomes only, no timing.

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = `from=${dateOf(TEST_ANCHOR.getTime() - 29 * DAY_MS)}&to=${dateOf(TEST_ANCHOR.getTime())}`;

describe.each(["primary", "alternative"] as const)("mirror reads over HTTP (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  let dir: string;
  let b: TestBrowser;
  const recorded: Recorded[] = [];

  const hook = async (json: { hold?: boolean }) => {
    const res = await b.fetch("/api/test-hooks/reads", {
      method: "POST",
      json,
      headers: { "x-test-hooks-token": TEST_HOOKS_TOKEN },
    });
    expect(res.status).toBe(200);
    return res.body as { waiting: number; pool: OffThreadStats };
  };

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    dir = mkdtempSync(join(tmpdir(), "ffd-mirror-reads-http-"));
    app = await startApp({
      ...mirrorAppEnv(upstream.baseUrl, dir),
      BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
      MIRROR_WORKERS: "2",
    });
    b = new TestBrowser(app.origin, recorded);
    await signInAndSync(b, upstream.keys["demo-full"]);
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a fourth mirror read with a 429 and a sentence while livez answers; the held three then succeed", async () => {
    await hook({ hold: true });
    try {
      const held = [
        b.fetch(`/api/exceptions?${period}`),
        b.fetch(`/api/reports/jurisdictions?${period}`),
        b.fetch(`/api/exceptions?${period}&group=driver`),
      ];
      while ((await hook({})).waiting < 3) await new Promise((r) => setImmediate(r));
      const refused = await b.fetch(`/api/exceptions?${period}`);
      expect(refused.status).toBe(429);
      expect(refused.res.headers.get("retry-after")).toBe("10");
      expect(errorCodeOf(refused.body)).toBe("too_many_running");
      expect(errorMessageOf(refused.body)).toBe(
        "You already have 3 reports loading (in this or another tab). Wait for them to finish, then try again.",
      );
      // The probe answers while three reads are in flight (and still held: the gate is closed).
      expect((await b.fetch("/api/livez")).status).toBe(200);
      expect((await hook({})).waiting).toBe(3);
      await hook({ hold: false });
      for (const res of await Promise.all(held)) expect(res.status).toBe(200);
    } finally {
      await hook({ hold: false });
    }
  });

  it("judges the exceptions in the built app's worker threads", async () => {
    const before = (await hook({})).pool;
    const res = await b.fetch(`/api/exceptions?${period}`);
    expect(res.status).toBe(200);
    expect((res.body as ExceptionsReply).rules.length).toBeGreaterThan(0);
    const after = (await hook({})).pool;
    expect(after.started).toBeGreaterThanOrEqual(1);
    // The current period and the previous one: two judgements, each answered by a worker.
    expect(after.done).toBe(before.done + 2);
    expect(after.failed).toBe(before.failed);
  });
});
