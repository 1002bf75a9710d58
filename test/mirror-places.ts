import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

import { type MirrorDatabase, mirrorMigrations } from "@/lib/mirror";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";

/**
 * Tests only: where a mirror of each store kind lives — a SQLite file in a temporary folder, or a database of a
 * PostgreSQL server started for the test file (both removed after it) — and a mirror migrated only partly, as an
 * older build left it (the tests that a file opened by a newer build gains what it lacks).
 */

export type StoreKind = "sqlite" | "postgres";
export type MirrorPlace = { kind: "sqlite"; path: string } | { kind: "postgres"; databaseUrl: string };

/** Starts PostgreSQL and a temporary folder before the file's tests (stopped after): each call, a new empty place. */
export function mirrorPlacesOfThisFile(name: string): (kind: StoreKind) => Promise<MirrorPlace> {
  let postgres: PostgresServer;
  let tempDir: string;
  let places = 0;
  beforeAll(async () => {
    tempDir = mkdtempSync(join(tmpdir(), `ffd-${name}-`));
    postgres = await startPostgresServer();
  });
  afterAll(async () => {
    await postgres.stop();
    rmSync(tempDir, { recursive: true, force: true });
  });
  return async (kind) => {
    places++;
    return kind === "sqlite"
      ? { kind, path: join(tempDir, `${name}-${String(places)}.db`) }
      : { kind, databaseUrl: await postgres.createDatabase(`${name.replaceAll("-", "_")}_${String(places)}`) };
  };
}

/** The place's database with only the migrations `keep` picks applied; the caller destroys it before opening a store. */
export async function migratedOnly(
  place: MirrorPlace,
  keep: (migration: string) => boolean,
): Promise<Kysely<MirrorDatabase>> {
  const db =
    place.kind === "sqlite"
      ? new Kysely<MirrorDatabase>({ dialect: new SqliteDialect({ database: new Database(place.path) }) })
      : new Kysely<MirrorDatabase>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: place.databaseUrl }) }),
        });
  const all = await mirrorMigrations(place.kind).getMigrations();
  const { error } = await new Migrator({
    db,
    provider: {
      getMigrations: () => Promise.resolve(Object.fromEntries(Object.entries(all).filter(([n]) => keep(n)))),
    },
    migrationTableName: "mirror_migrations",
    migrationLockTableName: "mirror_migrations_lock",
  }).migrateToLatest();
  if (error !== undefined)
    throw error instanceof Error ? error : new Error("the partial migration failed", { cause: error });
  return db;
}
