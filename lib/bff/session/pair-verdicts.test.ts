import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { type Credentials, isFleetApiError } from "@/lib/fleet-api";
import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { BffError, fromUpstream } from "../http/errors";
import { restartForTest } from "../http/test-context";
import { loginLimiter } from "../platform/login-limiter-redis";
import { checkSignIn } from "./sign-in-check";

/*
 * The sign-in's check (lib/bff/session/sign-in-check.ts, the step of POST /api/session before the cookie is sealed) over the
 * sandbox as a separate process, real HTTP on loopback: who is throttled, and what a restart keeps. A restart is
 * what a new process has: nothing of this one's memory, the same SESSION_DB file, or the same Redis.
 * Time: the process's Date is faked (the BFF's clock and the client's read it) and the sandbox's clock is moved by
 * the same amounts (/sandbox/clock), so tokens, back-offs, allowances and verdicts all see the same time pass.
 */

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const DAY_MS = 24 * 3_600_000;

type Outcome =
  { ok: true } | { ok: false; code: string; status: number; message: string; retryAfterSeconds: number | undefined };

const COMBINATIONS = [
  ["primary", "file"],
  ["alternative", "file"],
  ["primary", "redis"],
  ["alternative", "redis"],
] as const;

describe.each(COMBINATIONS)("sign-in throttles and pair verdicts (%s profile, verdicts in %s)", (profile, store) => {
  let upstream: SandboxProcess;
  let redisServer: RedisServer | undefined;
  let dataDir: string;
  let sandboxOffsetMs = 0;
  const env = () => ({
    // The sandbox's conveniences (plain http on loopback) need SANDBOX=1 (issue 24 item 6).
    SANDBOX: "1",
    FLEET_API_BASE_URL: upstream.baseUrl,
    FLEET_API_BUDGET: "100000",
    SESSION_SECRET,
    SESSION_DB: join(dataDir, "data", "sessions.db"),
    REDIS_URL: redisServer?.url ?? "",
  });
  /** Both clocks, ours (faked Date) and the sandbox's, move on by `ms`. */
  const advance = async (ms: number) => {
    vi.setSystemTime(Date.now() + ms);
    sandboxOffsetMs += ms;
    const res = await fetch(`${new URL(upstream.baseUrl).origin}/sandbox/clock`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ offsetMs: sandboxOffsetMs }),
    });
    expect(res.status).toBe(200);
  };
  /** The check as the route answers it: ok, or the error's code, status and Retry-After (lib/bff/http/errors.ts). */
  const signIn = async (credentials: Credentials): Promise<Outcome> => {
    try {
      const request = new Request("http://127.0.0.1/api/session", { method: "POST" });
      await checkSignIn({ request, signal: AbortSignal.timeout(20_000) }, credentials);
      return { ok: true };
    } catch (error) {
      const bff = isFleetApiError(error) ? fromUpstream(error) : error;
      if (!(bff instanceof BffError)) throw error;
      const retryAfter = bff.headers["Retry-After"];
      const retryAfterSeconds = retryAfter === undefined ? undefined : Number(retryAfter);
      return { ok: false, code: bff.code, status: bff.status, message: bff.message, retryAfterSeconds };
    }
  };
  const createKey = async (): Promise<Credentials> => {
    const key = JSON.parse(await upstream.cli("keys", "create", "--customer", "PFL")) as {
      key_id: string;
      secret: string;
    };
    return { keyId: key.key_id, secret: key.secret };
  };
  const randomKeyId = () => `ffk_${randomBytes(12).toString("hex")}`;
  const wrongSecret = () => `ffs_${randomBytes(16).toString("hex")}`;
  const authStatuses = () =>
    [...upstream.output().matchAll(/\[sandbox\] POST \/api\/v1\/auth (\d{3})/g)].map((m) => m[1] ?? "");

  beforeAll(async () => {
    [upstream, redisServer] = await Promise.all([
      startSandboxProcess({ profile, log: true, args: ["--budget", "100000", "--control"] }),
      store === "redis" ? startRedisServer() : Promise.resolve(undefined),
    ]);
    dataDir = mkdtempSync(join(tmpdir(), "ffd-pair-verdicts-"));
  }, 60_000);
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: T0 });
    await advance(61_000); // a new minute on both sides: each test starts with the whole failed-check allowance
    if (redisServer) {
      const redis = new Redis(redisServer.url);
      await redis.flushall();
      redis.disconnect();
    }
    restartForTest(env());
    rmSync(join(dataDir, "data"), { recursive: true, force: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    restartForTest({ REDIS_URL: "" });
    await Promise.all([upstream.stop(), redisServer?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("an owner who signed in 29 days ago is never throttled by an attacker's wrong secrets for its key id, across a restart and 20 minutes of doubling back-off", async () => {
    const owner = await createKey();
    expect(await signIn(owner)).toEqual({ ok: true });
    await expectVerdictKeptPrivately(owner);
    await advance(29 * DAY_MS);
    restartForTest(env()); // the app restarts between the owner's sign-in and the attack

    const start = Date.now();
    const waits: number[] = [];
    let guesses = 0;
    let ownerSignIns = 0;
    while (Date.now() - start < 20 * 60_000) {
      const guess = await signIn({ keyId: owner.keyId, secret: wrongSecret() });
      if (!guess.ok && guess.code === "rate_limited") {
        // The attacker waits out the key id's back-off, then sends its next wrong secret: one per back-off period.
        waits.push(guess.retryAfterSeconds ?? 0);
        await advance((guess.retryAfterSeconds ?? 1) * 1000);
        continue;
      }
      expect(guess).toMatchObject({ ok: false, code: "invalid_credentials" });
      guesses++;
      if ((await loginLimiter().waitMs(owner.keyId, null)) === 0) continue; // no back-off in force yet
      // The key id is throttled right now; its owner's pair is not, at the first try.
      expect(await signIn(owner)).toEqual({ ok: true });
      ownerSignIns++;
    }
    expect(guesses).toBeGreaterThanOrEqual(9); // 3 free, then one per back-off: 5 s, 10 s … 640 s
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(320);
    expect(ownerSignIns).toBe(guesses - 2);
    // Restarted again, the back-off still in force where it is shared (Redis): the stored verdict alone lets the owner in.
    restartForTest(env());
    for (let i = 0; i < 3; i++) await signIn({ keyId: owner.keyId, secret: wrongSecret() });
    expect(await loginLimiter().waitMs(owner.keyId, null)).toBeGreaterThan(0);
    expect(await signIn(owner)).toEqual({ ok: true });
    expect(authStatuses()).not.toContain("429");
  });

  it("12 sign-ins with random key ids do not make a never-used valid key wait; the provider's own limit is never reached", async () => {
    const fresh = await createKey();
    for (let i = 0; i < 12; i++)
      expect(await signIn({ keyId: randomKeyId(), secret: wrongSecret() })).toMatchObject({
        code: "invalid_credentials",
      });
    expect(await signIn(fresh)).toEqual({ ok: true });
    // An attacker who goes on is refused here before the provider's ~20 failed checks a minute would lock everyone out.
    const before = authStatuses().length;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await signIn({ keyId: randomKeyId(), secret: wrongSecret() }));
    const [checked, refusedHere] = [outcomes.slice(0, 4), outcomes.slice(4)];
    for (const outcome of checked) expect(outcome).toMatchObject({ status: 401, code: "invalid_credentials" });
    for (const outcome of refusedHere)
      expect(outcome).toMatchObject({
        status: 429,
        code: "rate_limited",
        message: expect.stringMatching(/^Too many failed key checks .* please wait \d+ s and try again\.$/) as unknown,
        retryAfterSeconds: 60,
      });
    expect(authStatuses().slice(before)).toEqual(["401", "401", "401", "401"]);
    expect(authStatuses()).not.toContain("429");
  });

  /** The verified verdict is kept for 30 days, named by an HMAC only: no key id, no secret, in an owner-only file. */
  async function expectVerdictKeptPrivately(owner: Credentials): Promise<void> {
    if (redisServer) {
      const redis = new Redis(redisServer.url);
      try {
        const keys = await redis.keys("ffd:verdict:*");
        expect(keys).toHaveLength(1);
        expect(await redis.pttl(keys[0] ?? "")).toBeGreaterThan(29 * DAY_MS);
        expect(keys.join() + ((await redis.get(keys[0] ?? "")) ?? "")).not.toMatch(
          new RegExp(`${owner.keyId}|${owner.secret}`),
        );
      } finally {
        redis.disconnect();
      }
      return;
    }
    const path = env().SESSION_DB;
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.prepare("SELECT pair_id, verdict, until_ms FROM pair_verdicts").all() as { until_ms: number }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]?.until_ms).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    } finally {
      db.close();
    }
    const wal = existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`, "latin1") : "";
    expect(wal + readFileSync(path, "latin1")).not.toMatch(new RegExp(`${owner.keyId}|${owner.secret}`));
  }
});
