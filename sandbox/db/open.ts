import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";

import Database from "better-sqlite3";

import { migrate } from "./schema";
import { DEFAULT_SEED, DEFAULT_STATIONS, DEFAULT_TRANSACTIONS, seedDatabase, type SeedOptions } from "./seed";

export const DEFAULT_DB_PATH = ".data/sandbox.db";

export interface OpenOptions {
  path: string;
  /** Delete the file first and seed anew. */
  reset?: boolean;
  /** Used only when the database is new (or reset). */
  seed?: Partial<SeedOptions>;
}

export interface OpenedDatabase {
  db: Database.Database;
  /** True when this call created and seeded the database. */
  seeded: boolean;
  seed: number;
}

/** Opens (creating, migrating and seeding on first use) the sandbox database. `:memory:` works too. */
export function openDatabase(options: OpenOptions): OpenedDatabase {
  if (options.path !== ":memory:") {
    mkdirSync(dirname(options.path), { recursive: true });
    if (options.reset) for (const suffix of ["", "-wal", "-shm"]) rmSync(options.path + suffix, { force: true });
  }
  const db = new Database(options.path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -65536"); // 64 MiB page cache: the hot indexes of a million rows stay in memory
  db.pragma("mmap_size = 268435456");
  migrate(db);
  const hasData = db.prepare("SELECT 1 FROM customers LIMIT 1").get() !== undefined;
  if (!hasData) {
    const now = new Date();
    now.setUTCMinutes(0, 0, 0);
    seedDatabase(db, {
      seed: options.seed?.seed ?? DEFAULT_SEED,
      anchor: options.seed?.anchor ?? now,
      stations: options.seed?.stations ?? DEFAULT_STATIONS,
      transactions: options.seed?.transactions ?? DEFAULT_TRANSACTIONS,
    });
  }
  const seedRow = db.prepare("SELECT value FROM meta WHERE key = 'seed'").get() as { value: string } | undefined;
  return { db, seeded: !hasData, seed: Number(seedRow?.value ?? DEFAULT_SEED) };
}
