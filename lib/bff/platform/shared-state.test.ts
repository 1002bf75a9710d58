import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { freePort } from "@/test/net";
import { startPostgresServer } from "@/test/postgres-server";
import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Two built app instances sharing a real redis-server (issue 17): the failed sign-ins on both add up to one limit,
// the second instance serves the account and the catalog from Redis without an upstream call, GET /api/healthz says
// what is reachable, and with Redis killed a sign-in gets a 503 naming the shared state (fail closed). The real
// sandbox as a process, in both profiles, over HTTP.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const TEST_HOOKS_TOKEN = "shared-state-test-token-0123456789";

interface SandboxRequest {
  method: string;
  path: string;
  status: number;
}

describe.each(["primary", "alternative"] as const)("several instances sharing Redis (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let redisServer: RedisServer;
  let a: AppProcess;
  let b: AppProcess;
  const apps: AppProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startApp({ SESSION_SECRET, FLEET_API_BUDGET: "100000", LOG_LEVEL: "info", ...env });
    apps.push(app);
    return app;
  };
  /** What the sandbox has served so far (its request log). */
  const served = async (): Promise<SandboxRequest[]> => {
    const origin = upstream.baseUrl.replace(/\/api\/v1$/, "");
    const reply = await fetch(`${origin}/sandbox/requests`);
    return ((await reply.json()) as { requests: SandboxRequest[] }).requests;
  };

  beforeAll(async () => {
    [upstream, redisServer] = await Promise.all([
      startSandboxProcess({ profile, args: ["--control", "--budget", "100000"] }),
      startRedisServer(),
    ]);
    const env = { FLEET_API_BASE_URL: upstream.baseUrl, REDIS_URL: redisServer.url };
    [a, b] = await Promise.all([start(env), start(env)]);
  }, 300_000);
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
    await (redisServer as RedisServer | undefined)?.stop();
  });

  it("adds up the failed sign-ins of both instances: the 4th failure in a row of one key id waits, whichever instance it reaches", async () => {
    const { keyId } = upstream.keys["demo-full"];
    const onA = new TestBrowser(a.origin);
    const onB = new TestBrowser(b.origin);
    // Three failures in a row are free (a person's typos), spread over both instances.
    for (const browser of [onA, onB, onA]) {
      const res = await browser.login(keyId, "wrong-secret-0000000000000000");
      expect(res.status).toBe(401);
      expect(errorCodeOf(res.body)).toBe("invalid_credentials");
    }
    // One instance alone has seen a single failure; together they have seen three: the next one waits.
    const refused = await onB.login(keyId, "wrong-secret-0000000000000000");
    expect(refused.status).toBe(429);
    expect(errorCodeOf(refused.body)).toBe("rate_limited");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 120_000);

  it("serves the account and the station catalog on the second instance from Redis, without an upstream call", async () => {
    const { keyId, secret } = upstream.keys["other-full"];
    const onA = new TestBrowser(a.origin);
    expect((await onA.login(keyId, secret)).status).toBe(200);
    const accountA = await onA.fetch("/api/account");
    expect(accountA.status).toBe(200);
    const locationsA = await onA.fetch("/api/locations");
    expect(locationsA.status).toBe(200);
    // The same session on the other instance (a load balancer may send the next request anywhere).
    const onB = new TestBrowser(b.origin);
    onB.cookie = onA.cookie;
    const before = (await served()).length;
    const accountB = await onB.fetch("/api/account");
    const locationsB = await onB.fetch("/api/locations");
    expect(accountB.status).toBe(200);
    expect(accountB.body).toEqual(accountA.body);
    expect(locationsB.status).toBe(200);
    expect(locationsB.body).toEqual(locationsA.body);
    expect((await served()).slice(before)).toEqual([]);
  }, 120_000);

  it("GET /api/healthz: 200 with everything reachable, 503 naming the upstream when it is not; no URL or secret; the API headers", async () => {
    const res = await new TestBrowser(a.origin).fetch("/api/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, redis: "ok", database: "off", upstream: "reachable" });
    expect(res.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.res.headers.get("cache-control")).toBe("no-store");
    // Without REDIS_URL: "off", still healthy; an upstream nobody answers at: 503 naming it.
    const closedPort = await freePort();
    const alone = await start({ FLEET_API_BASE_URL: `http://127.0.0.1:${String(closedPort)}/api/v1` });
    const down = await new TestBrowser(alone.origin).fetch("/api/healthz");
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ ok: false, redis: "off", database: "off", upstream: "unreachable" });
    // The balancer's check (liveness) still passes: an upstream outage must not take every instance out of rotation.
    const live = await new TestBrowser(alone.origin).fetch("/api/livez");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ ok: true });
    expect(live.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(live.res.headers.get("cache-control")).toBe("no-store");
    for (const text of [res.text, down.text, live.text]) {
      expect(text).not.toContain("127.0.0.1");
      expect(text).not.toContain("redis://");
    }
  }, 120_000);

  it("with Redis killed: healthz 503 naming Redis, and a sign-in gets a 503 that says why (fail closed), never a crash", async () => {
    await redisServer.stop({ crash: true });
    const health = await new TestBrowser(a.origin).fetch("/api/healthz");
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ok: false, redis: "down", upstream: "reachable" });
    expect((await new TestBrowser(a.origin).fetch("/api/livez")).status).toBe(200); // still in the balancer's rotation
    const { keyId } = upstream.keys["demo-full"];
    const res = await new TestBrowser(b.origin).login(keyId, "another-wrong-secret-000000000");
    expect(res.status).toBe(503);
    expect(errorCodeOf(res.body)).toBe("shared_state_unavailable");
    expect(errorMessageOf(res.body)).toMatch(/shared state \(Redis\) cannot be reached/);
    expect(res.text).not.toContain(redisServer.url);
    expect(b.output()).not.toContain(redisServer.url);
  }, 120_000);
});

describe("without Redis: the several-instances warning, the database health", () => {
  const apps: AppProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), "ffd-sessions-"));
  let upstream: SandboxProcess;
  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile: "primary" });
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are warned about in one log line when they share the session database and REDIS_URL is unset", async () => {
    const env = { SESSION_SECRET, FLEET_API_BASE_URL: upstream.baseUrl, SESSION_DB: join(dir, "sessions.db") };
    const first = await startApp(env);
    apps.push(first);
    const second = await startApp(env);
    apps.push(second);
    const warning = "another dashboard instance shares this session database while REDIS_URL is unset";
    // The second sees the first's heartbeat row when it starts (the first sees the second's on its next beat).
    while (!second.output().includes(warning)) await new Promise((r) => setTimeout(r, 200));
    expect(second.output().split(warning)).toHaveLength(2);
  }, 120_000);

  it("are not warned about after a restart: a stopped instance (Ctrl-C) or a killed one (its row still fresh) is not another instance", async () => {
    const env = { SESSION_SECRET, FLEET_API_BASE_URL: upstream.baseUrl, SESSION_DB: join(dir, "restart.db") };
    const warning = "another dashboard instance shares this session database";
    const firstRun = await startApp(env);
    await firstRun.stop(); // SIGTERM, as the launcher passes Ctrl-C on
    const secondRun = await startApp(env);
    apps.push(secondRun);
    // A crash leaves a row as fresh as a live instance's: only its pid tells it apart.
    process.kill(secondRun.pid ?? 0, "SIGKILL");
    await secondRun.stop();
    const thirdRun = await startApp(env);
    apps.push(thirdRun);
    // The heartbeat's first look happens as the app starts, before it answers: a request's own log line comes after
    // any warning it printed (one stdout, in order).
    expect((await fetch(`${thirdRun.origin}/api/livez`)).status).toBe(200);
    while (!thirdRun.output().includes('"route":"GET /api/livez"')) await new Promise((r) => setTimeout(r, 100));
    expect(secondRun.output()).not.toContain(warning);
    expect(thirdRun.output()).not.toContain(warning);
  }, 120_000);

  it("PostgreSQL stopped: healthz 503 naming the database, the mirror's routes a 503 that says so (not a 500), the rest still served, livez 200", async () => {
    const postgres = await startPostgresServer();
    const app = await startApp({
      SESSION_SECRET,
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_DB: join(dir, "sessions-pg.db"),
      MIRROR_ENABLED: "true",
      DATABASE_URL: await postgres.createDatabase("health"),
      BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
    });
    apps.push(app);
    const up = await new TestBrowser(app.origin).fetch("/api/healthz");
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ ok: true, redis: "off", database: "ok", upstream: "reachable" });
    const { keyId, secret } = upstream.keys["demo-full"];
    const user = new TestBrowser(app.origin);
    expect((await user.login(keyId, secret)).status).toBe(200);
    while (((await user.fetch("/api/sync")).body as { state?: string }).state !== "ready")
      await new Promise((r) => setTimeout(r, 250));
    await postgres.stop();
    // healthz reuses the database's answer for 10 s (issue 24 item 4): the app's clock moves past that.
    const moved = await fetch(`${app.origin}/api/test-hooks/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": TEST_HOOKS_TOKEN },
      body: JSON.stringify({ offsetMs: 10_000 }),
    });
    expect(moved.status).toBe(204);
    const down = await new TestBrowser(app.origin).fetch("/api/healthz");
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ ok: false, redis: "off", database: "down", upstream: "reachable" });
    expect(down.text).not.toContain("postgres");
    // What reads the mirror answers a 503 that says the database is not answering (never a 500); what does not
    // (the account, the station catalog: upstream and caches) still serves.
    for (const path of [
      "/api/transactions?page=1&limit=5",
      "/api/transactions/summary",
      "/api/transactions/totals",
      "/api/savings",
      "/api/sync",
    ]) {
      const r = await user.fetch(path);
      expect({ path, status: r.status, code: errorCodeOf(r.body) }).toEqual({
        path,
        status: 503,
        code: "shared_state_unavailable",
      });
      expect(errorMessageOf(r.body)).toMatch(
        /^The dashboard's database \(the local copy of your transactions\) is not answering\./,
      );
      expect(r.text).not.toContain("postgres");
    }
    // The whole catalog (the map) and the products probe only record into the mirror: served, unrecorded.
    for (const path of ["/api/account", "/api/locations?limit=5", "/api/locations?all=1", "/api/locations/products"])
      expect({ path, status: (await user.fetch(path)).status }).toEqual({ path, status: 200 });
    // The balancer's check still passes: the instance is alive, only its database is not.
    expect((await new TestBrowser(app.origin).fetch("/api/livez")).status).toBe(200);
  }, 120_000);
});
