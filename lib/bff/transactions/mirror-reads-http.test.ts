import { beforeAll, describe, expect, it } from "vitest";

import type { ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { TEST_HOOKS_TOKEN } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf, type TestBrowser } from "@/test/browser";
import { useMirrorAppStack } from "@/test/mirror-app-stack";

import type { OffThreadStats } from "../platform/off-thread/pool";

// Issue 25 item 7 over real HTTP against the built app (its mirror on SQLite, synced from the sandbox), both profiles:
// a session's fourth mirror read is a 429 with Retry-After and a sentence while three are held in flight (the test
// gate, POST /api/test-hooks/reads), /api/livez answers meanwhile, and the exceptions are judged by the worker pool of
// the built app (its counters, through the same hook). Order and outcomes only, no timing.

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = `from=${dateOf(TEST_ANCHOR.getTime() - 29 * DAY_MS)}&to=${dateOf(TEST_ANCHOR.getTime())}`;

describe.each(["primary", "alternative"] as const)("mirror reads over HTTP (%s profile)", (profile) => {
  const stack = useMirrorAppStack(profile, { BFF_TEST_HOOKS: TEST_HOOKS_TOKEN, MIRROR_WORKERS: "2" });
  let b: TestBrowser;
  beforeAll(() => {
    b = stack().browser;
  });

  const hook = async (json: { hold?: boolean }) => {
    const res = await b.fetch("/api/test-hooks/reads", {
      method: "POST",
      json,
      headers: { "x-test-hooks-token": TEST_HOOKS_TOKEN },
    });
    expect(res.status).toBe(200);
    return res.body as { waiting: number; pool: OffThreadStats };
  };

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
    // The current period and the previous one: two judgements, each answered by a worker (counted per task: the
    // background savings loop shares the pool).
    const judged = (stats: OffThreadStats) => stats.doneByTask["exceptions.judge"] ?? 0;
    expect(judged(after)).toBe(judged(before) + 2);
    expect(after.failed).toBe(before.failed);
  });
});
