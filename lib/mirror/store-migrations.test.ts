import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";

import { mirrorMigrations } from "./migrations";
import type { MirrorDatabase } from "./schema";
import { MirrorStore } from "./store";

// A mirror file made by a build whose migrations were merged in another order (0007 from one branch before 0006 from
// another, as happened on main) has a later migration without an earlier one. Kysely refuses that by default
// ("corrupted migrations"), so the dashboard could not open the file at all; it now applies the missing one.

let postgres: PostgresServer;
let tempDir: string;
let databases = 0;

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), "ffd-store-migrations-"));
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres.stop();
  rmSync(tempDir, { recursive: true, force: true });
});

describe.each(["sqlite", "postgres"] as const)("a mirror missing an earlier migration (%s)", (kind) => {
  it("opens, with the missing migration applied and the later one kept", async () => {
    const where =
      kind === "sqlite"
        ? { path: join(tempDir, `gap-${String(++databases)}.db`) }
        : { databaseUrl: await postgres.createDatabase(`store_gap_${String(++databases)}`) };
    const db =
      kind === "sqlite"
        ? new Kysely<MirrorDatabase>({ dialect: new SqliteDialect({ database: new Database(where.path) }) })
        : new Kysely<MirrorDatabase>({
            dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: where.databaseUrl }) }),
          });
    const all = await mirrorMigrations(kind).getMigrations();
    const names = Object.keys(all).sort();
    const skipped = names.find((n) => n.startsWith("0006"));
    expect(skipped).toBeDefined();
    await new Migrator({
      db,
      provider: {
        getMigrations: () => Promise.resolve(Object.fromEntries(Object.entries(all).filter(([n]) => n !== skipped))),
      },
      migrationTableName: "mirror_migrations",
      migrationLockTableName: "mirror_migrations_lock",
    }).migrateToLatest();
    await db.destroy();

    const store = await MirrorStore.open(where);
    try {
      const applied = await store.db
        .selectFrom("mirror_migrations" as never)
        .select("name" as never)
        .execute();
      expect(applied.map((r) => (r as { name: string }).name).sort()).toEqual(names);
    } finally {
      await store.close();
    }
  });
});
