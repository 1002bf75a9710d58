import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";

import { type AppProcess, startApp } from "./app-process";
import { type PostgresServer, startPostgresServer } from "./postgres-server";
import { type RedisServer, startRedisServer } from "./redis-server";
import { type SandboxProcess, type SandboxProfile, startSandboxProcess } from "./sandbox-process";

/**
 * Three built app instances sharing one redis-server and one PostgreSQL (the mirror), in front of the sandbox as a
 * process with the provider's real budget (60 requests per key per minute): what lib/bff/platform/cluster*.test.ts run.
 */

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
export const PROVIDER_BUDGET = 60;
export const PROVIDER_WINDOW_MS = 60_000;

/** One upstream request as the sandbox logged it, and when it arrived (the log line comes once it was answered). */
export interface Seen {
  at: number;
  method: string;
  path: string;
  status: number;
}

export class ClusterStack {
  upstream!: SandboxProcess;
  redis!: RedisServer;
  postgres!: PostgresServer;
  databaseUrl = "";
  readonly apps: AppProcess[] = [];
  readonly seen: Seen[] = [];
  #dir = "";
  #watcher: NodeJS.Timeout | undefined;

  /** `sandboxArgs`: more for the sandbox's command line (e.g. a longer history to sync). */
  async start(profile: SandboxProfile, instances: number, sandboxArgs: string[] = []): Promise<void> {
    [this.upstream, this.redis, this.postgres] = await Promise.all([
      startSandboxProcess({ profile, log: true, args: ["--budget", String(PROVIDER_BUDGET), ...sandboxArgs] }),
      startRedisServer(),
      startPostgresServer(),
    ]);
    this.databaseUrl = await this.postgres.createDatabase("cluster");
    this.#dir = mkdtempSync(join(tmpdir(), "ffd-cluster-"));
    let offset = 0;
    this.#watcher = setInterval(() => {
      const out = this.upstream.output();
      const fresh = out.slice(offset);
      offset = out.length;
      // The sandbox logs a request once answered, with how long that took: it arrived that much earlier.
      for (const m of fresh.matchAll(/\[sandbox\] (GET|POST) (\/api\/v1\/\S*) (\d{3}) ([\d.]+)ms/g))
        this.seen.push({
          at: Date.now() - Number(m[4]),
          method: m[1] ?? "",
          path: m[2] ?? "",
          status: Number(m[3]),
        });
    }, 10);
    // One at a time: instances started together race to migrate the fresh PostgreSQL mirror.
    for (let i = 0; i < instances; i++) await this.addInstance();
  }

  /** Redis key names matching `pattern` (KEYS: a test's small Redis only). */
  async redisKeys(pattern: string): Promise<string[]> {
    const redis = new Redis(this.redis.url, { maxRetriesPerRequest: 1 });
    try {
      return await redis.keys(pattern);
    } finally {
      redis.disconnect();
    }
  }

  /** One more instance on its own port, sharing Redis, PostgreSQL and the session secret. */
  async addInstance(): Promise<AppProcess> {
    const app = await startApp({
      FLEET_API_BASE_URL: this.upstream.baseUrl,
      SESSION_SECRET,
      REDIS_URL: this.redis.url,
      DATABASE_URL: this.databaseUrl,
      MIRROR_ENABLED: "true",
      SESSION_DB: join(this.#dir, `sessions-${String(this.apps.length)}.db`),
      LOG_LEVEL: "warn",
    });
    this.apps.push(app);
    return app;
  }

  /** Kills an instance as a dead host would (SIGKILL: no renewal, no release, nothing flushed). */
  kill(app: AppProcess): void {
    if (app.pid !== undefined) process.kill(app.pid, "SIGKILL");
  }

  async stop(): Promise<void> {
    clearInterval(this.#watcher);
    for (const app of this.apps) await app.stop();
    await Promise.all([this.upstream.stop(), this.redis.stop(), this.postgres.stop()]);
    rmSync(this.#dir, { recursive: true, force: true });
  }

  /** The customer's transaction ids as the sandbox holds them (its own database: the upstream's truth). */
  upstreamIds(customerCode: string): string[] {
    const db = new Database(this.upstream.dbPath, { readonly: true });
    try {
      return (
        db
          .prepare(
            "SELECT t.id FROM transactions t JOIN customers c ON c.pk = t.customer_pk WHERE c.code = ? ORDER BY t.id",
          )
          .all(customerCode) as { id: string }[]
      ).map((r) => r.id);
    } finally {
      db.close();
    }
  }

  /** Every customer's mirrored ids in PostgreSQL, with duplicates kept (a doubled row would show twice). */
  async mirrorIds(): Promise<Map<string, string[]>> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ customer_id: string; id: string }>(
        "SELECT customer_id, id FROM mirror_transactions ORDER BY customer_id, id",
      );
      const byCustomer = new Map<string, string[]>();
      for (const row of rows) byCustomer.set(row.customer_id, [...(byCustomer.get(row.customer_id) ?? []), row.id]);
      return byCustomer;
    } finally {
      await client.end();
    }
  }
}

/** The most requests any window of `windowMs` holds (sliding: every request starts one). */
export function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
