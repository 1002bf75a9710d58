import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Key-pair checks through the BFF over real HTTP: `next start` of the built app and the sandbox as a separate
// process. Upstream requests are counted from the sandbox's own request log.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";

describe.each(["primary", "alternative"] as const)("key-pair checks through the BFF (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  const browser = () => new TestBrowser(app.origin);
  /** Statuses of the POST /auth requests the sandbox logged. */
  const authStatuses = () =>
    [...upstream.output().matchAll(/\[sandbox\] POST \/api\/v1\/auth (\d{3})/g)].map((m) => m[1] ?? "");
  const createKey = async () =>
    JSON.parse(await upstream.cli("keys", "create", "--customer", "PFL")) as { key_id: string; secret: string };

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("replaying 20 sessions of a revoked key costs at most one POST /auth, and ends every one of them", async () => {
    const key = await createKey();
    const sessions: TestBrowser[] = [];
    for (let i = 0; i < 20; i++) {
      const b = browser();
      expect((await b.login(key.key_id, key.secret)).status).toBe(200);
      sessions.push(b);
    }
    await upstream.cli("keys", "revoke", key.key_id);
    const before = authStatuses().length;
    // One after another (as replays come): concurrent requests would share one load and prove nothing.
    for (const [i, b] of sessions.entries()) {
      const res = await b.fetch(`/api/transactions?limit=1&page=${String(i + 1)}`);
      expect(res.status).toBe(401);
      expect(errorCodeOf(res.body)).toBe("session_ended");
    }
    expect(authStatuses().slice(before).length).toBeLessThanOrEqual(1);
    for (const b of sessions) expect((await b.fetch("/api/session")).status).toBe(401);
  });

  it("reports a key refused because of this server's address as such, on sign-in and on a page, not as revoked", async () => {
    const allowListed = upstream.keys["demo-allowlist"];
    const signIn = await browser().login(allowListed.keyId, allowListed.secret);
    if (profile === "primary") {
      expect(signIn.status).toBe(200); // the primary description has no allow-list rule
      return;
    }
    expect(signIn.status).toBe(403);
    expect(errorCodeOf(signIn.body)).toBe("address_refused");
    expect(errorMessageOf(signIn.body)).toMatch(
      /refused this key from this server's address: its allow-list must include the dashboard server/,
    );
    expect(errorMessageOf(signIn.body)).not.toMatch(/revoked|sign in again/i);

    // A session whose key gets an allow-list without this server: every page says so, and the session stays.
    const key = await createKey();
    const b = browser();
    expect((await b.login(key.key_id, key.secret)).status).toBe(200);
    const db = new Database(upstream.dbPath);
    try {
      db.prepare("UPDATE api_keys SET allow_ips = ? WHERE key_id = ?").run(
        JSON.stringify(["203.0.113.10"]),
        key.key_id,
      );
    } finally {
      db.close();
    }
    for (const path of ["/api/transactions?limit=1", "/api/locations?limit=1"]) {
      const res = await b.fetch(path);
      expect(res.status).toBe(403);
      expect(errorCodeOf(res.body)).toBe("address_refused");
      expect(errorMessageOf(res.body)).toMatch(/allow-list must include the dashboard server/);
    }
    expect((await b.fetch("/api/session")).status).toBe(200);
  });

  it("recognises an owner after a restart of the app: another's wrong secrets for its key id do not throttle it", async () => {
    const owner = await createKey();
    const dir = mkdtempSync(join(tmpdir(), "ffd-restart-"));
    const env = {
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_SECRET,
      FLEET_API_BUDGET: "100000",
      SESSION_DB: join(dir, "data", "sessions.db"),
    };
    let first: AppProcess | undefined = await startApp(env);
    try {
      expect((await new TestBrowser(first.origin).login(owner.key_id, owner.secret)).status).toBe(200);
      await first.stop();
      first = undefined;
      const restarted = await startApp(env); // a new process over the same SESSION_DB
      try {
        const b = () => new TestBrowser(restarted.origin);
        const guesses = [];
        for (let i = 0; i < 4; i++) guesses.push((await b().login(owner.key_id, `ffs_${String(i)}-wrong`)).status);
        expect(guesses).toEqual([401, 401, 401, 429]); // the key id's back-off is in force
        expect((await b().login(owner.key_id, owner.secret)).status).toBe(200);
      } finally {
        await restarted.stop();
      }
    } finally {
      await first?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets a user with a valid pair sign in while an attacker sends wrong sign-ins as fast as it can", async () => {
    const demo = upstream.keys["demo-full"];
    expect((await browser().login(demo.keyId, demo.secret)).status).toBe(200); // the user signed in earlier today
    const before = authStatuses().length;
    let isAttacking = true;
    const attackStatuses: number[] = [];
    // Random key ids, and wrong secrets for the demo key id (ids are not secret: the login page shows this one).
    const attacker = async () => {
      for (let i = 0; isAttacking; i++) {
        const keyId = i % 2 === 0 ? `ffk_${randomBytes(12).toString("hex")}` : demo.keyId;
        attackStatuses.push((await browser().login(keyId, `ffs_${randomBytes(8).toString("hex")}`)).status);
      }
    };
    const attackers = Array.from({ length: 4 }, attacker);
    try {
      while (attackStatuses.length < 60) await new Promise((r) => setTimeout(r, 50));
      // The throttles are engaged: the deployment's allowance and the demo key id's backoff both refuse the attacker.
      expect(attackStatuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      const user = await browser().login(demo.keyId, demo.secret);
      expect(user.status).toBe(200);
      expect(user.body).toMatchObject({ customer: { name: "Prairie Freight Lines" } });
    } finally {
      isAttacking = false;
      await Promise.all(attackers);
    }
    const seen = authStatuses().slice(before);
    expect(seen).not.toContain("429"); // the provider's per-address allowance was never reached
    expect(seen.filter((s) => s === "401").length).toBeLessThanOrEqual(16); // the failed-check allowance
  });
});
