import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, Transaction as KyselyTransaction } from "kysely";
import pg from "pg";

import type { Transaction } from "@/lib/model";
import { ensurePrivateFile, type Warn } from "@/lib/private-files";

import { purgeCatalog } from "./catalog";
import { purgeKeyScopes } from "./key-scopes";
import { purgeLocalRollups } from "./local-rollups";
import { mirrorMigrations } from "./migrations";
import { purgeRollups } from "./rollups";
import { epochMs, exactInteger, fromRow } from "./rows";
import type { MirrorDatabase } from "./schema";
import { deleteRows, lockCustomerWrites, upsertRows } from "./store-writes";
import type { Db, InstantRange, MirrorDialect, StoreHandle, SyncState } from "./types";

export const DEFAULT_MIRROR_PATH = ".data/mirror.db";

export interface MirrorStoreOptions {
  /** A PostgreSQL URL (what several app instances share); without it the SQLite file below. */
  databaseUrl?: string | undefined;
  /** SQLite file, default `.data/mirror.db`: owner-only (0600 in a 0700 folder; narrowed with a warning if wider). */
  path?: string | undefined;
  /** Where a narrowed mode is reported (default console.warn). */
  warn?: Warn | undefined;
}

const nullableMs = (value: number | string | null): number | null => (value === null ? null : epochMs(value));

/**
 * The mirror's store: one Kysely schema over SQLite (better-sqlite3, WAL; `file` for worker threads) or PostgreSQL.
 * Every method names its customer; nothing reads or writes across customers except `customers()` for operators.
 */
export class MirrorStore implements StoreHandle {
  private constructor(
    readonly db: Kysely<MirrorDatabase>,
    readonly dialect: MirrorDialect,
    readonly file: string | null = null,
  ) {}

  /** A worker thread's read-only connection to an existing SQLite store (no migrations), beside the app's writer. */
  static openReadOnly(file: string): MirrorStore {
    const sqlite = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    return new MirrorStore(
      new Kysely<MirrorDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }),
      "sqlite",
      file,
    );
  }

  /** Opens the store and runs its migrations. */
  static async open(options: MirrorStoreOptions = {}): Promise<MirrorStore> {
    let store: MirrorStore;
    if (options.databaseUrl) {
      // The pool's clients read bigint and numeric as strings (pg's default), which rows.ts converts exactly.
      const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
      // An idle client whose server went away emits "error" on the pool; unheard, that would end the process. The next
      // query fails with its own error, which its caller reports (the sync's outcome, a route's 503, /api/healthz).
      pool.on("error", (error) => {
        console.warn(`The mirror's PostgreSQL connection was lost: ${error.message}`);
      });
      store = new MirrorStore(new Kysely<MirrorDatabase>({ dialect: new PostgresDialect({ pool }) }), "postgres");
    } else {
      const path = options.path ?? DEFAULT_MIRROR_PATH;
      // Every tenant's rows: made private before SQLite opens it (its -wal and -shm then get the same mode).
      ensurePrivateFile(path, options.warn ? { warn: options.warn } : {});
      const sqlite = new Database(path);
      sqlite.pragma("journal_mode = WAL");
      sqlite.pragma("synchronous = NORMAL");
      sqlite.pragma("busy_timeout = 5000");
      store = new MirrorStore(
        new Kysely<MirrorDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }),
        "sqlite",
        path,
      );
    }
    await store.migrate();
    return store;
  }

  private async migrate(): Promise<void> {
    const migrator = new Migrator({
      db: this.db,
      provider: mirrorMigrations(this.dialect),
      migrationTableName: "mirror_migrations",
      migrationLockTableName: "mirror_migrations_lock",
      allowUnorderedMigrations: true, // each stands alone: a gap is filled (store-migrations.test.ts)
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((r) => r.status === "Error");
      throw new Error(
        `the mirror's migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : "unknown error"}`,
        { cause: error },
      );
    }
  }

  close(): Promise<void> {
    return this.db.destroy();
  }

  /** Runs `fn` in one transaction: a page of rows and the cursor that says it is done land together or not at all. */
  transaction<T>(fn: (trx: KyselyTransaction<MirrorDatabase>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /**
   * Inserts or replaces rows by (customer, id), and moves the rollups by the difference (the replaced rows out, the
   * new ones in) in the same transaction — the caller's, or one of its own.
   */
  async upsertTransactions(customerId: string, items: readonly Transaction[], nowMs: number, db: Db = this.db) {
    if (db instanceof KyselyTransaction) await upsertRows(db, this.dialect, customerId, items, nowMs);
    else await this.transaction((trx) => upsertRows(trx, this.dialect, customerId, items, nowMs));
  }

  /** Deletes rows by id and takes them out of the rollups, in one transaction (the caller's or its own). */
  deleteTransactions(customerId: string, ids: readonly string[], db: Db = this.db): Promise<number> {
    if (db instanceof KyselyTransaction) return deleteRows(db, this.dialect, customerId, ids);
    return this.transaction((trx) => deleteRows(trx, this.dialect, customerId, ids));
  }

  /** Ids of the customer's rows in a range of instants. */
  async idsIn(customerId: string, range: InstantRange, db: Db = this.db): Promise<string[]> {
    let q = db.selectFrom("mirror_transactions").select("id").where("customer_id", "=", customerId);
    if (range.fromMs !== undefined) q = q.where("at_ms", ">=", range.fromMs);
    if (range.toMs !== undefined) q = q.where("at_ms", "<", range.toMs);
    return (await q.execute()).map((r) => r.id);
  }

  /** The oldest and newest instants the customer's mirror holds; nulls when it holds nothing. */
  async extent(
    customerId: string,
    db: Db = this.db,
  ): Promise<{ oldestMs: number | null; newestMs: number | null; rows: number }> {
    const row = await db
      .selectFrom("mirror_transactions")
      .select((eb) => [eb.fn.min("at_ms").as("oldest"), eb.fn.max("at_ms").as("newest"), eb.fn.countAll().as("n")])
      .where("customer_id", "=", customerId)
      .executeTakeFirstOrThrow();
    // MIN/MAX over no rows are NULL, which Kysely's types do not say.
    const oldest = row.oldest as number | string | null;
    const newest = row.newest as number | string | null;
    return {
      oldestMs: oldest === null ? null : epochMs(oldest),
      newestMs: newest === null ? null : epochMs(newest),
      rows: Number(exactInteger(row.n)),
    };
  }

  /**
   * How many rows the customer's mirror holds, from the quarter-hour rollups (exact: kept in every write's
   * transaction, ./store-writes.ts) — a status poll reads a few thousand rollup rows, not every transaction.
   */
  async rowCount(customerId: string): Promise<number> {
    const row = await this.db
      .selectFrom("mirror_bucket_totals")
      .select((eb) =>
        eb.fn
          .sum<number | string | null>(eb(eb(eb.ref("completed"), "+", eb.ref("pending")), "+", eb.ref("failed")))
          .as("n"),
      )
      .where("customer_id", "=", customerId)
      .executeTakeFirstOrThrow();
    return Number(exactInteger(row.n));
  }

  /** Every row of the customer, newest first (the upstream's order: time, then id as the tiebreak) — for checks and tests. */
  async allTransactions(customerId: string): Promise<Transaction[]> {
    const rows = await this.db
      .selectFrom("mirror_transactions")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("at_ms", "desc")
      .orderBy("id")
      .execute();
    return rows.map(fromRow);
  }

  async getSyncState(customerId: string, db: Db = this.db): Promise<SyncState> {
    const row = await db
      .selectFrom("mirror_sync_state")
      .selectAll()
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    if (!row) {
      return {
        customerId,
        newestAtMs: null,
        coverageFromMs: null,
        backfill: { toDay: null, nextPage: null, expected: null, doneRows: 0, complete: false },
        lastHeadSyncMs: null,
        lastVerificationMs: null,
        lastVerification: null,
        lastError: null,
      };
    }
    return {
      customerId,
      newestAtMs: nullableMs(row.newest_at_ms),
      coverageFromMs: nullableMs(row.coverage_from_ms),
      backfill: {
        toDay: row.backfill_to_day,
        nextPage: row.backfill_next_page,
        expected: row.backfill_expected,
        doneRows: row.backfill_done_rows,
        complete: row.backfill_complete === 1,
      },
      lastHeadSyncMs: nullableMs(row.last_head_sync_ms),
      lastVerificationMs: nullableMs(row.last_verification_ms),
      lastVerification: row.last_verification === null ? null : (JSON.parse(row.last_verification) as unknown),
      lastError: row.last_error,
    };
  }

  async putSyncState(state: SyncState, nowMs: number, db: Db = this.db): Promise<void> {
    const values = {
      customer_id: state.customerId,
      newest_at_ms: state.newestAtMs,
      coverage_from_ms: state.coverageFromMs,
      backfill_to_day: state.backfill.toDay,
      backfill_next_page: state.backfill.nextPage,
      backfill_expected: state.backfill.expected,
      backfill_done_rows: state.backfill.doneRows,
      backfill_complete: state.backfill.complete ? 1 : 0,
      last_head_sync_ms: state.lastHeadSyncMs,
      last_verification_ms: state.lastVerificationMs,
      last_verification: state.lastVerification === null ? null : JSON.stringify(state.lastVerification),
      last_error: state.lastError,
      updated_at_ms: nowMs,
    };
    const { customer_id: _key, ...update } = values;
    await db
      .insertInto("mirror_sync_state")
      .values(values)
      .onConflict((oc) => oc.column("customer_id").doUpdateSet(update))
      .execute();
  }

  /** Deletes one customer's mirror: rows, rollups, catalog and price history, key verdicts, sync state. */
  async purge(customerId: string): Promise<void> {
    await this.transaction(async (trx) => {
      await lockCustomerWrites(trx, this.dialect, customerId);
      await trx.deleteFrom("mirror_transactions").where("customer_id", "=", customerId).execute();
      await purgeRollups(trx, customerId);
      await purgeLocalRollups(trx, customerId);
      await purgeCatalog(trx, customerId);
      await purgeKeyScopes(trx, customerId);
      await trx.deleteFrom("mirror_sync_state").where("customer_id", "=", customerId).execute();
    });
  }
}
