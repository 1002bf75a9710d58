import { randomBytes } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Two built app instances behind one address share the failed-check allowance and the pair verdicts through a real
// redis-server (REDIS_URL, one SESSION_SECRET): wrong sign-ins spread over both reach the provider at most 16 times a
// minute in all (each instance on its own would let 16 through: 32, past the provider's ~20 per address, which then
// locks the whole deployment out), and a pair one instance learned was refused costs the other no upstream call.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const ALLOWANCE = 16; // DEFAULT_FAILED_CHECKS (lib/fleet-api/credential-checks.ts)

describe.each(["primary", "alternative"] as const)(
  "two instances, one failed-check allowance through Redis (%s profile)",
  (profile) => {
    let upstream: SandboxProcess;
    let redis: RedisServer;
    const apps: AppProcess[] = [];
    /** Statuses of the POST /auth requests the sandbox logged. */
    const authStatuses = () =>
      [...upstream.output().matchAll(/\[sandbox\] POST \/api\/v1\/auth (\d{3})/g)].map((m) => m[1] ?? "");
    const wrongPair = () => ({
      keyId: `ffk_${randomBytes(12).toString("hex")}`,
      secret: `ffs_${randomBytes(8).toString("hex")}`,
    });
    const signIn = (instance: number, pair: { keyId: string; secret: string }) =>
      new TestBrowser(apps[instance]?.origin ?? "").login(pair.keyId, pair.secret);

    beforeAll(async () => {
      [upstream, redis] = await Promise.all([
        startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] }),
        startRedisServer(),
      ]);
      const env = {
        FLEET_API_BASE_URL: upstream.baseUrl,
        SESSION_SECRET,
        FLEET_API_BUDGET: "100000",
        REDIS_URL: redis.url,
        LOG_LEVEL: "warn",
      };
      apps.push(...(await Promise.all([startApp(env), startApp(env)])));
    }, 240_000);
    afterAll(async () => {
      for (const app of apps) await app.stop();
      await Promise.all([upstream.stop(), redis.stop()]);
    });

    it("a pair A learned the provider refuses costs B no upstream call", async () => {
      // A user signed in earlier today on A: the pair is known good on both instances (a shared verdict).
      const demo = upstream.keys["demo-full"];
      expect((await signIn(0, demo)).status).toBe(200);
      const before = authStatuses().length;
      const learned = wrongPair();
      const onA = await signIn(0, learned);
      expect(onA.status).toBe(401);
      expect(authStatuses().slice(before)).toEqual(["401"]);
      const onB = await signIn(1, learned);
      expect(onB.status).toBe(401);
      expect(errorMessageOf(onB.body)).toBe(errorMessageOf(onA.body));
      expect(authStatuses().slice(before)).toEqual(["401"]);
    }, 60_000);

    it("wrong sign-ins on A and B in turn: at most 16 reach the provider in all, the 17th is refused here", async () => {
      // Wrong pairs in turn on B and A until one is refused here (the test before spent one failed check already).
      const statuses: number[] = [];
      for (let i = 0; i < 30 && !statuses.includes(429); i++) statuses.push((await signIn(i % 2, wrongPair())).status);
      const seen = authStatuses();
      expect(seen.filter((s) => s === "401")).toHaveLength(ALLOWANCE);
      expect(seen).not.toContain("429"); // the provider's per-address allowance was never reached
      expect(statuses).toEqual([...Array.from({ length: ALLOWANCE - 1 }, () => 401), 429]);

      // The next wrong pair, on either instance, is refused here with the existing sentence; nothing reaches the provider.
      for (const instance of [0, 1]) {
        const refused = await signIn(instance, wrongPair());
        expect(refused.status).toBe(429);
        expect(errorCodeOf(refused.body)).toBe("rate_limited");
        expect(errorMessageOf(refused.body)).toMatch(
          /^Too many failed key checks \(wrong or revoked keys\) reached the Fleet Fuel API from this dashboard in the last minute\./,
        );
        expect(refused.res.headers.get("retry-after")).toMatch(/^\d+$/);
      }
      expect(authStatuses()).toEqual(seen);

      // The pair known good still signs in on both (it takes no place in the allowance), whoever spent it.
      const demo = upstream.keys["demo-full"];
      for (const instance of [0, 1]) expect((await signIn(instance, demo)).status).toBe(200);
    }, 120_000);
  },
);
