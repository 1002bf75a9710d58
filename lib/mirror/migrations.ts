import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";

import { createComparisonTables } from "./comparisons";
import { createFillHistoryIndex } from "./fill-history";
import { createKeyScopesTable } from "./key-scopes";
import { createLocalBlockTable, rebuildLocalBlocks } from "./local-blocks";
import { rebuildLocalRollups } from "./local-rollups";
import { rebuildRollups } from "./rollups";
import { withPurchaseSums } from "./sum-columns";
import type { MirrorDialect } from "./types";

type Int8 = "bigint" | "integer";

async function createTransactionsTable(db: Kysely<unknown>, int8: Int8): Promise<void> {
  await db.schema
    .createTable("mirror_transactions")
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("at_ms", int8, (c) => c.notNull())
    .addColumn("local_offset_min", "integer")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("product", "text", (c) => c.notNull())
    .addColumn("gallons_milli", "integer", (c) => c.notNull())
    .addColumn("price_milli", "integer", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("station_id", "text", (c) => c.notNull())
    .addColumn("station_name", "text", (c) => c.notNull())
    .addColumn("station_loc_num", "text", (c) => c.notNull())
    .addColumn("station_city", "text", (c) => c.notNull())
    .addColumn("station_state", "text", (c) => c.notNull())
    .addColumn("driver_id", "text", (c) => c.notNull())
    .addColumn("driver_name", "text", (c) => c.notNull())
    .addColumn("truck_id", "text")
    .addColumn("card_last4", "text", (c) => c.notNull())
    .addColumn("def_gallons_milli", "integer")
    .addColumn("def_amount_cents", "integer")
    .addColumn("def_category", "text")
    .addColumn("synced_at_ms", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_transactions_pk", ["customer_id", "id"])
    .execute();
}

// A driver + state page sorted by amount has its own index; station, card, truck, amount, state × product too.
// The time index covers every column the summary groups or sums, so a period is read from it alone.
const TRANSACTION_INDEXES: readonly (readonly [name: string, columns: string[]])[] = [
  [
    "mirror_tx_time",
    [
      "customer_id",
      "at_ms",
      "status",
      "station_state",
      "product",
      "driver_id",
      "station_id",
      "amount_cents",
      "gallons_milli",
    ],
  ],
  ["mirror_tx_driver", ["customer_id", "driver_id", "station_state", "amount_cents", "at_ms"]],
  ["mirror_tx_station", ["customer_id", "station_id", "at_ms"]],
  ["mirror_tx_state_product", ["customer_id", "station_state", "product", "at_ms"]],
  ["mirror_tx_card", ["customer_id", "card_last4", "at_ms"]],
  ["mirror_tx_truck", ["customer_id", "truck_id", "at_ms"]],
  ["mirror_tx_amount", ["customer_id", "amount_cents", "at_ms"]],
];

async function createSyncStateTable(db: Kysely<unknown>, int8: Int8): Promise<void> {
  await db.schema
    .createTable("mirror_sync_state")
    .addColumn("customer_id", "text", (c) => c.primaryKey())
    .addColumn("newest_at_ms", int8)
    .addColumn("backfill_to_day", "text")
    .addColumn("backfill_next_page", "integer")
    .addColumn("backfill_expected", "integer")
    .addColumn("backfill_done_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("backfill_complete", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("coverage_from_ms", int8)
    .addColumn("last_head_sync_ms", int8)
    .addColumn("last_verification_ms", int8)
    .addColumn("last_verification", "text")
    .addColumn("last_error", "text")
    .addColumn("updated_at_ms", int8, (c) => c.notNull())
    .execute();
}

async function createRollupTables(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  // SQLite: the primary key is the table (no rowid table beside it), so a period's rollups are read in one pass.
  const clustered = dialect === "sqlite" ? sql`without rowid` : sql``;
  await db.schema
    .createTable("mirror_bucket_totals")
    // SQLite runs migrations outside a transaction: a migration cut short runs again over what it created.
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("bucket", int8, (c) => c.notNull())
    .addColumn("spend_n", "integer", (c) => c.notNull())
    .addColumn("spend_gallons_milli", int8, (c) => c.notNull())
    .addColumn("spend_amount_cents", int8, (c) => c.notNull())
    .addColumn("completed", "integer", (c) => c.notNull())
    .addColumn("pending", "integer", (c) => c.notNull())
    .addColumn("failed", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_bucket_totals_pk", ["customer_id", "bucket"])
    .modifyEnd(clustered)
    .execute();
  await db.schema
    .createTable("mirror_group_totals")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("dimension", "text", (c) => c.notNull())
    .addColumn("span_days", "integer", (c) => c.notNull())
    .addColumn("period", int8, (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("key2", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("gallons_milli", int8, (c) => c.notNull())
    .addColumn("amount_cents", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_group_totals_pk", [
      "customer_id",
      "dimension",
      "span_days",
      "period",
      "key",
      "key2",
    ])
    .modifyEnd(clustered)
    .execute();
}

async function createLocalRollupTable(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  // The key's order is the readers': one dimension's days of a range, then key, product, status.
  await withPurchaseSums(
    db.schema
      .createTable("mirror_local_day_totals")
      .ifNotExists()
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("dimension", "text", (c) => c.notNull())
      .addColumn("local_day", "integer", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("product", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull()),
    int8,
  )
    .addColumn("last_at_ms", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_local_day_totals_pk", [
      "customer_id",
      "dimension",
      "local_day",
      "key",
      "product",
      "status",
    ])
    .modifyEnd(dialect === "sqlite" ? sql`without rowid` : sql``)
    .execute();
}

async function createCatalogTables(db: Kysely<unknown>, dialect: MirrorDialect): Promise<void> {
  const int8 = dialect === "postgres" ? "bigint" : "integer";
  const double = dialect === "postgres" ? "double precision" : "real";
  await db.schema
    .createTable("mirror_stations")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("loc_num", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("lat", double, (c) => c.notNull())
    .addColumn("lng", double, (c) => c.notNull())
    .addColumn("first_seen_ms", int8, (c) => c.notNull())
    .addColumn("last_seen_ms", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_stations_pk", ["customer_id", "id"])
    .execute();
  // The key is also the reader's index: a station's records in time order, the one in force found by a range scan.
  await db.schema
    .createTable("mirror_station_prices")
    .ifNotExists()
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("station_id", "text", (c) => c.notNull())
    .addColumn("updated_ms", int8, (c) => c.notNull())
    .addColumn("price_milli", "integer", (c) => c.notNull())
    .addColumn("seen_ms", int8, (c) => c.notNull())
    .addPrimaryKeyConstraint("mirror_station_prices_pk", ["customer_id", "station_id", "updated_ms"])
    .execute();
}

/**
 * The mirror's migrations, in code (no migration folder to ship), run by Kysely's Migrator when a store opens. Where
 * the two stores differ (column types), the migration branches on the dialect; queries never do.
 */
const migrations = (dialect: MirrorDialect): Record<string, Migration> => ({
  "0001-transactions-and-sync-state": {
    // The Migrator hands every migration a Kysely of unknown schema; the tables are created here.
    async up(db: Kysely<unknown>): Promise<void> {
      const int8 = dialect === "postgres" ? "bigint" : "integer";
      await createTransactionsTable(db, int8);
      for (const [name, columns] of TRANSACTION_INDEXES)
        await db.schema.createIndex(name).on("mirror_transactions").columns(columns).execute();
      await createSyncStateTable(db, int8);
      if (dialect === "sqlite") await sql`PRAGMA optimize`.execute(db);
    },
  },
  // The rollups (./rollups.ts); a mirror that already holds rows gets them computed from its rows here. The driver's
  // rows by time: a driver's page newest first, and the summary's name of a top driver (its latest row).
  "0002-rollups": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createRollupTables(db, dialect);
      await rebuildRollups(db);
      await db.schema
        .createIndex("mirror_tx_driver_time")
        .ifNotExists()
        .on("mirror_transactions")
        .columns(["customer_id", "driver_id", "at_ms"])
        .execute();
    },
  },
  // The station catalog and its price history (./catalog.ts): recorded at each catalog walk of a mirrored customer;
  // and the index of the savings' read of completed fills.
  "0003-catalog-prices": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createCatalogTables(db, dialect);
      // The savings' read of a period's completed fills (lib/insights/savings-query) from this index alone.
      await db.schema
        .createIndex("mirror_tx_completed")
        .ifNotExists()
        .on("mirror_transactions")
        .columns([
          "customer_id",
          "status",
          "at_ms",
          "local_offset_min",
          "product",
          "station_id",
          "gallons_milli",
          "price_milli",
          "id",
        ])
        .execute();
    },
  },
  // The local-day rollup of the insight queries (./local-rollups.ts), computed from the rows of an existing mirror.
  "0004-local-day-rollup": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createLocalRollupTable(db, dialect);
      await rebuildLocalRollups(db);
    },
  },
  // Each key's proven transactions scope (./key-scopes.ts): the local copy serves a key only once it proved the scope.
  "0005-key-scopes": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createKeyScopesTable(db, dialect);
    },
  },
  // The stored per-fill savings comparison and its per-date sums (./comparisons.ts): an existing mirror's completed
  // fills start pending, computed in the background (lib/bff/mirror/comparisons.ts).
  "0006-fill-comparisons": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createComparisonTables(db, dialect);
    },
  },
  // The local-day rollup's blocks of 4, 16 and 128 days (./local-blocks.ts), computed from the day rows of an existing
  // mirror, and the day rows' index by key: long ranges and one key's page read a few rows per key, not every day's.
  "0007-local-day-blocks": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createLocalBlockTable(db, dialect);
      await rebuildLocalBlocks(db);
    },
  },
  // The exception rules' history read (./fill-history.ts) from an index alone: each truck's fills by product.
  "0008-fill-history-index": {
    async up(db: Kysely<unknown>): Promise<void> {
      await createFillHistoryIndex(db);
    },
  },
});

/** Kysely's MigrationProvider over the migrations above. */
export const mirrorMigrations = (dialect: MirrorDialect): MigrationProvider => ({
  getMigrations: () => Promise.resolve(migrations(dialect)),
});
