import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient } from "@/lib/fleet-api";
import { customerUsage, MirrorStore } from "@/lib/mirror";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { type AppProcess, mirrorAppEnv, startApp } from "@/test/app-process";
import { errorCodeOf, type Recorded, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// GET|POST /api/sync over real HTTP: the built app (`next start`) with its mirror in a temporary SQLite file, the
// sandbox as a separate process (with --control, to change its data while the app runs).

const DAY = 86_400_000;
const TEST_HOOKS_TOKEN = "test-hooks-token-0123456789abcdef";

describe.each(["primary", "alternative"] as const)("the mirror over HTTP (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  let dir: string;
  const recorded: Recorded[] = [];
  let clockOffsetMs = 0;
  /** Sync now starts a head sync only 30 s after the last one began (issue 24 item 3): the app's clock moves on. */
  const after30s = async () => {
    clockOffsetMs += 31_000;
    const res = await fetch(`${app.origin}/api/test-hooks/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": TEST_HOOKS_TOKEN },
      body: JSON.stringify({ offsetMs: clockOffsetMs }),
    });
    expect(res.status).toBe(204);
  };

  const signedIn = async (pair: { keyId: string; secret: string }) => {
    const b = new TestBrowser(app.origin, recorded);
    expect((await b.login(pair.keyId, pair.secret)).status).toBe(200);
    return b;
  };
  const syncStatus = async (b: TestBrowser) => {
    const res = await b.fetch("/api/sync");
    expect(res.status).toBe(200);
    return res.body as SyncStatusReply;
  };
  async function until(b: TestBrowser, done: (s: SyncStatusReply) => boolean): Promise<SyncStatusReply> {
    for (;;) {
      const status = await syncStatus(b);
      if (done(status)) return status;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  const settled = (b: TestBrowser) => until(b, (s) => !s.running && s.state !== "starting");
  /** The upstream's own count of the key's transactions (the list's `total`). */
  const upstreamTotal = async (pair: { keyId: string; secret: string }) =>
    (await new FleetApiClient({ baseUrl: upstream.baseUrl }).listTransactions(pair, { page: 1, limit: 1 })).total;

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--control", "--budget", "100000"] });
    dir = mkdtempSync(join(tmpdir(), "ffd-sync-api-"));
    // A customer whose mirror was last used 40 days ago: the app's start deletes it (MIRROR_RETENTION_DAYS=30).
    const planted = await MirrorStore.open({ path: join(dir, "mirror.db") });
    await planted.putSyncState(
      { ...(await planted.getSyncState("code:OLD")), lastHeadSyncMs: 1 },
      Date.now() - 40 * DAY,
    );
    await planted.close();
    app = await startApp({
      ...mirrorAppEnv(upstream.baseUrl, dir),
      BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
    });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts syncing at sign-in; GET /api/sync reaches ready with every upstream row", async () => {
    const b = await signedIn(upstream.keys["demo-full"]);
    const status = await settled(b);
    expect(status).toMatchObject({ state: "ready", running: false, error: null, backfill: { complete: true } });
    expect(status.rows).toBe(await upstreamTotal(upstream.keys["demo-full"]));
    expect(Date.parse(status.lastHeadSync ?? "")).not.toBeNaN();
    expect(status.lastVerification).toMatchObject({ ok: true });
  });

  it("signs in to a warm mirror with a head sync only: a verification under 15 minutes old is not repeated", async () => {
    const first = await settled(await signedIn(upstream.keys["demo-full"]));
    const second = await settled(await signedIn(upstream.keys["demo-full"]));
    expect(second.lastVerification?.at).toBe(first.lastVerification?.at);
    expect(Date.parse(second.lastHeadSync ?? "")).toBeGreaterThan(Date.parse(first.lastHeadSync ?? ""));
  });

  it.each([
    ["no X-Requested-With header", { "X-Requested-With": null }],
    ["a foreign Origin", { Origin: "https://evil.example" }],
  ])("refuses POST /api/sync with %s (CSRF)", async (_what, headers) => {
    const b = await signedIn(upstream.keys["demo-full"]);
    const res = await b.fetch("/api/sync", { method: "POST", headers });
    expect(res.status).toBe(403);
    expect(errorCodeOf(res.body)).toBe("csrf_rejected");
  });

  it("POST /api/sync runs a head sync: rows inserted upstream arrive", async () => {
    const b = await signedIn(upstream.keys["demo-full"]);
    const before = await settled(b);
    const origin = upstream.baseUrl.replace(/\/api\/v1$/, "");
    const inserted = await fetch(`${origin}/sandbox/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customer: "PFL", count: 2 }),
    });
    expect(inserted.status).toBe(201);
    const early = (await b.fetch("/api/sync", { method: "POST" })).body as SyncStatusReply;
    expect(early).toMatchObject({ running: false, rows: before.rows }); // sign-in's head sync is under 30 s old
    expect(Date.parse(early.nextHeadSync ?? "")).toBe(Date.parse(before.lastHeadSync ?? "") + 30_000);
    await after30s();
    const res = await b.fetch("/api/sync", { method: "POST" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "ready" });
    const after = await until(b, (s) => !s.running && s.rows === before.rows + 2);
    expect(after.rows).toBe(await upstreamTotal(upstream.keys["demo-full"]));
  });

  it("gives a key without the transactions scope state off", async () => {
    const b = await signedIn(upstream.keys["demo-no-transactions"]);
    const status = await until(b, (s) => s.state === "off");
    expect(status).toMatchObject({ rows: 0, running: false });
    expect(status.error).toMatch(/may not read transactions/);
  });

  it("ends the session of a key revoked while signed in (the sync's 401), so its next request gets a 401", async () => {
    const created = JSON.parse(await upstream.cli("keys", "create", "--customer", "CHI")) as {
      key_id: string;
      secret: string;
    };
    const b = await signedIn({ keyId: created.key_id, secret: created.secret });
    await settled(b);
    await upstream.cli("keys", "revoke", created.key_id);
    await after30s();
    expect((await b.fetch("/api/sync", { method: "POST" })).status).toBe(202);
    // GET /api/session calls no upstream: its 401 is the mirror service's doing.
    for (;;) {
      const res = await b.fetch("/api/session");
      if (res.status === 401) {
        expect(errorCodeOf(res.body)).toBe("session_ended");
        break;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  });

  it("deleted at start the mirror unused for MIRROR_RETENTION_DAYS", async () => {
    const store = await MirrorStore.open({ path: join(dir, "mirror.db") });
    try {
      for (;;) {
        const ids = (await customerUsage(store)).map((u) => u.customerId);
        if (!ids.includes("code:OLD")) break;
        await new Promise((r) => setTimeout(r, 150));
      }
    } finally {
      await store.close();
    }
  });

  it("never writes a key pair into the mirror's files", () => {
    const files = readdirSync(dir)
      .filter((f) => f.startsWith("mirror.db"))
      .map((f) => readFileSync(join(dir, f)));
    expect(files.length).toBeGreaterThan(0);
    for (const pair of Object.values(upstream.keys))
      for (const bytes of files) expect(bytes.includes(pair.secret) || bytes.includes(pair.keyId)).toBe(false);
  });
});
