import "server-only";

import Database from "better-sqlite3";

import { ensurePrivateFile } from "@/lib/private-files";

import { type Clock, systemClock } from "./clock";
import { type PairVerdict, type PairVerdictStore, parseStoredVerdict, storedVerdict } from "./credential-checks";
import { FleetApiError } from "./errors";

/**
 * The pair verdicts of credential-checks.ts in a SQLite file, so they outlive a restart: an owner whose pair the
 * provider accepted within the last 30 days is still recognised after one, and nobody else's failed sign-ins throttle
 * them. The processes of one machine share the file (WAL, a busy timeout), as they share the signed-out sessions.
 *
 * What the file holds is a pair's HMAC under a pepper kept in memory (derived from the session secret), the verdict
 * and its end; never a key id or a secret, so a copy of the file gives no way to test guesses of a secret offline.
 * Rows are written only after the provider answered a check (the failed-check allowance bounds those), and each is
 * deleted once its end has passed.
 */
export class SqlitePairVerdictStore implements PairVerdictStore {
  readonly #path: string;
  readonly #clock: Clock;
  #db: OpenFile | undefined;

  /** `clock`: the client's, for pruning ended rows. */
  constructor(path: string, options: { clock?: Clock } = {}) {
    this.#path = path;
    this.#clock = options.clock ?? systemClock;
  }

  // better-sqlite3 is synchronous: each call is one short indexed statement; a failure becomes the promise's rejection.
  get(pairId: string, nowMs: number): Promise<PairVerdict | undefined> {
    return new Promise((resolve) => {
      resolve(
        this.#run((db) => {
          const row = db.select.get(pairId);
          return row === undefined || row.until_ms <= nowMs ? undefined : parseStoredVerdict(row.verdict, nowMs);
        }),
      );
    });
  }

  set(pairId: string, verdict: PairVerdict, untilMs: number): Promise<void> {
    return new Promise((resolve) => {
      this.#run((db) => {
        db.upsert.run(pairId, storedVerdict(verdict, untilMs), Math.ceil(untilMs));
        db.deleteEnded.run(this.#clock.now());
      });
      resolve();
    });
  }

  /** Rows in the file (tests: it holds HMACs only, and stays bounded). */
  rows(): { pair_id: string; verdict: string; until_ms: number }[] {
    return this.#run((db) => db.all.all());
  }

  close(): void {
    this.#db?.db.close();
    this.#db = undefined;
  }

  /**
   * One statement on the open file; opened on first use and again after a failure (a lock held past the busy timeout,
   * a file that could not be read): the caller gets `shared_state_unavailable`, as for Redis down, and nothing is sent.
   */
  #run<T>(statement: (db: OpenFile) => T): T {
    try {
      this.#db ??= openFile(this.#path);
      return statement(this.#db);
    } catch (error) {
      this.close();
      throw new FleetApiError({
        status: 0,
        code: "shared_state_unavailable",
        message: "The dashboard's file of checked key pairs cannot be read right now; nothing was sent.",
        cause: error,
      });
    }
  }
}

interface Row {
  pair_id: string;
  verdict: string;
  until_ms: number;
}

interface OpenFile {
  db: Database.Database;
  select: Database.Statement<[string], Pick<Row, "verdict" | "until_ms">>;
  upsert: Database.Statement<[string, string, number]>;
  deleteEnded: Database.Statement<[number]>;
  all: Database.Statement<[], Row>;
}

function openFile(path: string): OpenFile {
  // Owner-only before SQLite opens it (its -wal and -shm files take the same mode); a wider file is narrowed, warned.
  ensurePrivateFile(path);
  // busy timeout 5 s: a writer of another process sharing the file is waited for, not failed.
  const db = new Database(path, { timeout: 5000 });
  try {
    db.pragma("journal_mode = WAL");
    db.exec(
      `CREATE TABLE IF NOT EXISTS pair_verdicts (pair_id TEXT PRIMARY KEY, verdict TEXT NOT NULL, until_ms INTEGER NOT NULL) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS pair_verdicts_until ON pair_verdicts (until_ms);`,
    );
    return {
      db,
      select: db.prepare("SELECT verdict, until_ms FROM pair_verdicts WHERE pair_id = ?"),
      upsert: db.prepare(
        "INSERT INTO pair_verdicts (pair_id, verdict, until_ms) VALUES (?, ?, ?) ON CONFLICT (pair_id) DO UPDATE SET verdict = excluded.verdict, until_ms = excluded.until_ms",
      ),
      deleteEnded: db.prepare("DELETE FROM pair_verdicts WHERE until_ms <= ?"),
      all: db.prepare("SELECT pair_id, verdict, until_ms FROM pair_verdicts ORDER BY until_ms"),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
