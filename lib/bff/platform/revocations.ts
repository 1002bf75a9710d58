import "server-only";

import Database from "better-sqlite3";
import type { Redis } from "ioredis";

import { ensurePrivateFile } from "@/lib/private-files";

import { BffError } from "../http/errors";
import { now } from "./clock";
import { getConfig } from "./config";
import { logger } from "./log";
import { sharedRedis } from "./redis";

/**
 * Ended sessions. A sealed cookie cannot be recalled, so logout puts the session id here until the session's absolute
 * expiry (after which the cookie is refused anyway); every request checks it. The list must outlive the process — a
 * restart must not bring a signed-out cookie back — so it is on disk by default (SQLite, `SESSION_DB`, shared by the
 * processes of one machine), and in Redis when REDIS_URL is set, so every instance sees a logout.
 */
export interface RevocationStore {
  revoke(sid: string, untilMs: number): Promise<void>;
  isRevoked(sid: string): Promise<boolean>;
}

/**
 * The embedded store: one row per ended session, deleted once its `until` has passed. Pruned on every revoke (logouts
 * are rare, and the delete walks an index), so the file holds at most the sessions ended within one absolute
 * session length. better-sqlite3 is synchronous: each call is one short indexed statement.
 */
export class SqliteRevocationStore implements RevocationStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[string, number]>;
  private readonly select: Database.Statement<[string], { until_ms: number }>;
  private readonly deleteExpired: Database.Statement<[number]>;
  private readonly count: Database.Statement<[], { n: number }>;

  constructor(path: string) {
    // Owner-only (0600 in a 0700 folder): a signed-out session id written here must not be deletable by anyone else.
    ensurePrivateFile(path, {
      warn: (message) => {
        logger().warn(message);
      },
    });
    // busy timeout 5 s: a writer of another process sharing the file is waited for, not failed.
    this.db = new Database(path, { timeout: 5000 });
    try {
      // WAL: readers (every request) never wait for a writer (a logout), also across processes sharing the file.
      this.db.pragma("journal_mode = WAL");
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS revoked_sessions (sid TEXT PRIMARY KEY, until_ms INTEGER NOT NULL) WITHOUT ROWID;
         CREATE INDEX IF NOT EXISTS revoked_sessions_until ON revoked_sessions (until_ms);`,
      );
      // A second revoke of the same id (logout racing a sign-in over it) never shortens the first.
      this.upsert = this.db.prepare(
        "INSERT INTO revoked_sessions (sid, until_ms) VALUES (?, ?) ON CONFLICT (sid) DO UPDATE SET until_ms = max(until_ms, excluded.until_ms)",
      );
      this.select = this.db.prepare("SELECT until_ms FROM revoked_sessions WHERE sid = ?");
      this.deleteExpired = this.db.prepare("DELETE FROM revoked_sessions WHERE until_ms <= ?");
      this.count = this.db.prepare("SELECT count(*) AS n FROM revoked_sessions");
      this.prune();
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  revoke(sid: string, untilMs: number): Promise<void> {
    this.upsert.run(sid, Math.ceil(untilMs));
    this.prune();
    return Promise.resolve();
  }

  isRevoked(sid: string): Promise<boolean> {
    const row = this.select.get(sid);
    return Promise.resolve(row !== undefined && row.until_ms > now());
  }

  /**
   * Deletes the entries whose time has passed; returns how many. By the system clock, not the BFF's (which tests move
   * forward in one app process): a moved clock must never delete an entry another process sharing the file still needs.
   */
  prune(): number {
    return this.deleteExpired.run(Date.now()).changes;
  }

  /** How many entries the file holds (tests: the store stays bounded). */
  size(): number {
    return this.count.get()?.n ?? 0;
  }

  close(): void {
    this.db.close();
  }
}

/** Redis down: no session can be told apart from a signed-out one, so none is accepted (fail closed). */
const revocationsUnavailable = (): BffError =>
  new BffError(
    "shared_state_unavailable",
    "The dashboard cannot check sign-outs right now (its shared state, Redis, is not answering). Please try again in a minute; if it persists, tell your administrator.",
    { "Retry-After": "30" },
  );

export class RedisRevocationStore implements RevocationStore {
  constructor(private readonly redis: Redis) {}
  async revoke(sid: string, untilMs: number): Promise<void> {
    // Redis expires the key itself: the store stays bounded without a sweep.
    await this.redis
      .set(`ffd:revoked:${sid}`, "1", "PX", Math.max(1, Math.ceil(untilMs - now())))
      .catch((error: unknown) => {
        throw Object.assign(revocationsUnavailable(), { cause: error });
      });
  }
  async isRevoked(sid: string): Promise<boolean> {
    const found = await this.redis.exists(`ffd:revoked:${sid}`).catch((error: unknown) => {
      throw Object.assign(revocationsUnavailable(), { cause: error });
    });
    return found === 1;
  }
}

const holder = globalThis as typeof globalThis & { __ffdRevocations?: RevocationStore };

/**
 * The session file cannot be opened or read (locked by another process for longer than the busy timeout, unreadable):
 * like Redis down, no session can be told apart from a signed-out one — a 503 the person can retry, never a 500, and
 * the store is opened again on the next request.
 */
const sessionFileUnavailable = (error: unknown): BffError =>
  Object.assign(
    new BffError(
      "shared_state_unavailable",
      "The dashboard cannot check sign-outs right now (its session file is busy or unreadable). Please try again in a minute; if it persists, tell your administrator.",
      { "Retry-After": "10" },
    ),
    { cause: error },
  );

/** The SQLite store with its failures as 503s (a read that failed once is retried once: a lock is often momentary). */
export class GuardedSqliteStore implements RevocationStore {
  private store: SqliteRevocationStore | undefined;
  constructor(private readonly path: string) {}
  private run<T>(op: (store: SqliteRevocationStore) => T): T {
    for (let attempt = 0; ; attempt++) {
      try {
        this.store ??= new SqliteRevocationStore(this.path);
        return op(this.store);
      } catch (error) {
        if (error instanceof BffError) throw error;
        if (attempt >= 1) throw sessionFileUnavailable(error);
      }
    }
  }
  async revoke(sid: string, untilMs: number): Promise<void> {
    await this.run((store) => store.revoke(sid, untilMs));
  }
  async isRevoked(sid: string): Promise<boolean> {
    return this.run((store) => store.isRevoked(sid));
  }
}

export function revocations(): RevocationStore {
  if (!holder.__ffdRevocations) {
    const redis = sharedRedis();
    holder.__ffdRevocations = redis
      ? new RedisRevocationStore(redis)
      : new GuardedSqliteStore(getConfig().session.dbPath);
  }
  return holder.__ffdRevocations;
}
