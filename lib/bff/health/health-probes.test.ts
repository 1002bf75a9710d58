import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { TestBrowser } from "@/test/browser";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// Issue 24 item 4: GET /api/healthz is public, so it must not be a way to spend the upstream or the database. 50
// anonymous calls at once against the built app, the real sandbox (both profiles; its own log of served requests) and a
// real PostgreSQL (the mirror's store; its own count of sessions): at most one upstream request and no new database
// connection per call — the probes run once at a time, reuse their answer for 10 s and go through the mirror's pool.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const TEST_HOOKS_TOKEN = "health-probes-test-token-0123456789";
const CALLS = 50;

describe.each(["primary", "alternative"] as const)(
  "GET /api/healthz spends neither upstream nor database (%s profile)",
  (profile) => {
    let upstream: SandboxProcess;
    let postgres: PostgresServer;
    let app: AppProcess;
    const database = `health_${profile}`;

    /** How many times the sandbox has been asked for the API's base address (the upstream probe). */
    const upstreamProbes = async (): Promise<number> => {
      const origin = upstream.baseUrl.replace(/\/api\/v1$/, "");
      const { requests } = (await (await fetch(`${origin}/sandbox/requests`)).json()) as {
        requests: { path: string }[];
      };
      return requests.filter((r) => r.path === "/api/v1" || r.path === "/api/v1/").length;
    };
    /** Connections ever opened to the app's database (pg_stat_database.sessions, PostgreSQL ≥ 14). */
    const databaseSessions = async (): Promise<number> => {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        await client.query("SELECT pg_stat_force_next_flush()");
        const { rows } = await client.query<{ sessions: string }>(
          "SELECT sessions::text FROM pg_stat_database WHERE datname = $1",
          [database],
        );
        return Number(rows[0]?.sessions ?? Number.NaN);
      } finally {
        await client.end();
      }
    };
    const burst = async () => {
      const replies = await Promise.all(
        Array.from({ length: CALLS }, () => new TestBrowser(app.origin).fetch("/api/healthz")),
      );
      for (const reply of replies)
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: 200,
          body: { ok: true, redis: "off", database: "ok", upstream: "reachable" },
        });
    };

    beforeAll(async () => {
      [upstream, postgres] = await Promise.all([
        startSandboxProcess({ profile, args: ["--control", "--budget", "100000"] }),
        startPostgresServer(),
      ]);
      app = await startApp({
        SESSION_SECRET,
        BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
        FLEET_API_BASE_URL: upstream.baseUrl,
        MIRROR_ENABLED: "true",
        DATABASE_URL: await postgres.createDatabase(database),
      });
    }, 300_000);
    afterAll(async () => {
      await (app as AppProcess | undefined)?.stop();
      await (upstream as SandboxProcess | undefined)?.stop();
      await (postgres as PostgresServer | undefined)?.stop();
    });

    it(`${String(CALLS)} calls at once: one upstream request and the mirror's pool, not ${String(CALLS)} of each`, async () => {
      const [probesBefore, sessionsBefore] = [await upstreamProbes(), await databaseSessions()];
      await burst();
      const [probes, sessions] = [(await upstreamProbes()) - probesBefore, (await databaseSessions()) - sessionsBefore];
      console.info(
        `[${profile}] ${String(CALLS)} × GET /api/healthz: ${String(probes)} upstream request(s), ${String(sessions)} new database connection(s)`,
      );
      expect(probes).toBe(1);
      // Through the mirror's pool (lib/mirror/store.ts, at most 10 connections; measured 1 or 2 here: the probe's
      // query, and the counter may include a startup connection of the mirror's that closed meanwhile), never one per call.
      expect(sessions).toBeLessThanOrEqual(10);
    }, 120_000);

    it("asks again once the answer is 10 s old (the app's clock moved forward, not waited for)", async () => {
      await burst();
      const before = await upstreamProbes();
      const moved = await fetch(`${app.origin}/api/test-hooks/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": TEST_HOOKS_TOKEN },
        body: JSON.stringify({ offsetMs: 10_000 }),
      });
      expect(moved.status).toBe(204);
      await burst();
      expect((await upstreamProbes()) - before).toBe(1);
    }, 120_000);
  },
);
