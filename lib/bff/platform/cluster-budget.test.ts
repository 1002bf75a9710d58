import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, TestBrowser } from "@/test/browser";
import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Two built app instances share one key's request budget through a real redis-server (REDIS_URL): page loads on both,
// interleaved, never make the sandbox answer 429, and no window of the budget's length holds more than the budget.
// Without Redis each instance would spend the whole budget on its own: twice the provider's allowance.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const BUDGET = 8;
const WINDOW_SECONDS = 3;
/**
 * How late this test may see a request in the sandbox's output, beyond the time it took to answer (the test polls the
 * output every 10 ms; the pipe adds a little): the check's window is shorter by this. The app keeps 250 ms more.
 */
const OBSERVATION_SLACK_MS = 150;

describe.each(["primary", "alternative"] as const)(
  "two instances, one budget through Redis (%s profile)",
  (profile) => {
    let upstream: SandboxProcess;
    let redis: RedisServer;
    const apps: AppProcess[] = [];
    /** When each upstream request showed up in the sandbox's log, and its status. */
    const seen: { at: number; line: string }[] = [];
    let watcher: NodeJS.Timeout | undefined;

    beforeAll(async () => {
      [upstream, redis] = await Promise.all([
        startSandboxProcess({
          profile,
          log: true,
          args: ["--budget", String(BUDGET), "--window-seconds", String(WINDOW_SECONDS)],
        }),
        startRedisServer(),
      ]);
      const env = {
        FLEET_API_BASE_URL: upstream.baseUrl,
        SESSION_SECRET,
        FLEET_API_BUDGET: String(BUDGET),
        FLEET_API_WINDOW_SECONDS: String(WINDOW_SECONDS),
        REDIS_URL: redis.url,
        LOG_LEVEL: "warn",
      };
      apps.push(...(await Promise.all([startApp(env), startApp(env)])));
      let offset = 0;
      watcher = setInterval(() => {
        const out = upstream.output();
        const fresh = out.slice(offset);
        offset = out.length;
        // The sandbox logs a request once answered, with how long that took: it arrived that much earlier.
        for (const m of fresh.matchAll(/\[sandbox\] ((?:GET|POST) \/api\/v1\/\S+ \d{3}) ([\d.]+)ms/g))
          seen.push({ at: Date.now() - Number(m[2]), line: m[1] ?? "" });
      }, 10);
    }, 240_000);
    afterAll(async () => {
      clearInterval(watcher);
      for (const app of apps) await app.stop();
      await Promise.all([upstream.stop(), redis.stop()]);
    });

    it("interleaved page loads on both instances: no 429 from the provider, no window over the budget", async () => {
      const { keyId, secret } = upstream.keys["demo-full"];
      const browsers = apps.map((app) => new TestBrowser(app.origin));
      for (const b of browsers) expect((await b.login(keyId, secret)).status).toBe(200);

      // Three windows' worth of distinct pages (no cache can answer them), asked at once, alternating instances.
      const pages = Array.from({ length: 3 * BUDGET }, (_, i) => i + 1);
      const statuses = await Promise.all(
        pages.map(async (page) => {
          const b = browsers[page % browsers.length];
          return (await b?.fetch(`/api/transactions?page=${String(page)}&limit=5`))?.status;
        }),
      );
      expect(statuses).toEqual(pages.map(() => 200));
      await new Promise((r) => setTimeout(r, 100)); // the last log lines reach the watcher

      expect(seen.filter((s) => s.line.endsWith(" 429"))).toEqual([]);
      expect(seen.length).toBeGreaterThan(2 * BUDGET);
      const times = seen.map((s) => s.at).sort((a, b) => a - b);
      for (let i = 0; i + BUDGET < times.length; i++) {
        expect((times[i + BUDGET] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(
          WINDOW_SECONDS * 1000 - OBSERVATION_SLACK_MS,
        );
      }
    }, 120_000);

    it("with Redis down, a page load is a clear 503 and nothing reaches the provider", async () => {
      const { keyId, secret } = upstream.keys["demo-full"];
      const b = new TestBrowser(apps[0]?.origin ?? "");
      expect((await b.login(keyId, secret)).status).toBe(200);
      await redis.stop({ crash: true });
      const before = upstream.output().length;
      const res = await b.fetch("/api/transactions?page=50&limit=5");
      expect(res.status).toBe(503);
      expect(errorCodeOf(res.body)).toBe("shared_state_unavailable");
      expect(JSON.stringify(res.body)).toMatch(/Redis/);
      expect(upstream.output().slice(before)).not.toMatch(/\[sandbox\] (GET|POST) /);
    }, 60_000);
  },
);
