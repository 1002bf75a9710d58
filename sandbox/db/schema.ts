import type Database from "better-sqlite3";

/**
 * Migrations, applied in order; `PRAGMA user_version` records how many ran.
 * Money and volume are integers in minor units (cents, thousandths of a gallon, thousandths of a dollar per
 * gallon) so every sum is exact. Transactions point at stations, drivers and cards by integer rowid to keep
 * the 1,000,000-row table and its indexes small.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE customers (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    fee_milli INTEGER NOT NULL,            -- per-gallon fee deduction, thousandths of a dollar; never shown in the primary shape
    created_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE api_keys (
    key_id TEXT PRIMARY KEY,
    customer_pk INTEGER NOT NULL REFERENCES customers(pk),
    label TEXT NOT NULL DEFAULT '',
    secret_hash TEXT NOT NULL,             -- scrypt$N$r$p$salt$hash; the secret itself is never stored
    scopes TEXT NOT NULL,                  -- JSON array of account|transactions|locations
    allow_ips TEXT,                        -- JSON array of addresses, NULL = any
    created_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT;
  CREATE INDEX api_keys_customer ON api_keys(customer_pk);

  CREATE TABLE stations (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    loc_num TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    brand TEXT NOT NULL,
    address TEXT NOT NULL,
    city TEXT NOT NULL,
    state TEXT NOT NULL,
    zip TEXT NOT NULL,
    lat REAL NOT NULL,
    lng REAL NOT NULL,
    phone TEXT NOT NULL,
    amenities TEXT NOT NULL,               -- JSON array
    has_def INTEGER NOT NULL,
    diesel_milli INTEGER NOT NULL,         -- retail price per gallon, thousandths of a dollar
    unleaded_milli INTEGER NOT NULL,
    def_milli INTEGER,
    price_updated_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX stations_brand ON stations(brand);
  CREATE INDEX stations_state ON stations(state);

  CREATE TABLE drivers (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    customer_pk INTEGER NOT NULL REFERENCES customers(pk),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    truck_id TEXT
  ) STRICT;
  CREATE INDEX drivers_customer ON drivers(customer_pk);

  CREATE TABLE cards (
    pk INTEGER PRIMARY KEY,
    customer_pk INTEGER NOT NULL REFERENCES customers(pk),
    last4 TEXT NOT NULL,
    type TEXT NOT NULL
  ) STRICT;
  CREATE INDEX cards_customer ON cards(customer_pk);

  CREATE TABLE transactions (
    pk INTEGER PRIMARY KEY,                -- insertion order; the stable tiebreak after transaction time
    id TEXT NOT NULL UNIQUE,
    customer_pk INTEGER NOT NULL REFERENCES customers(pk),
    ref TEXT NOT NULL,                     -- external transaction reference (transaction_id)
    at_utc INTEGER NOT NULL,               -- epoch seconds
    tz_offset_min INTEGER NOT NULL,        -- station's UTC offset at that moment, for transaction_at
    status TEXT NOT NULL CHECK (status IN ('completed','pending','failed')),
    product TEXT NOT NULL,
    gallons_milli INTEGER NOT NULL,
    price_milli INTEGER NOT NULL,          -- customer price per gallon, thousandths of a dollar
    amount_cents INTEGER NOT NULL,         -- gallons x price, rounded half up to cents
    station_pk INTEGER NOT NULL REFERENCES stations(pk),
    driver_pk INTEGER NOT NULL REFERENCES drivers(pk),
    card_pk INTEGER NOT NULL REFERENCES cards(pk),
    def_gallons_milli INTEGER NOT NULL DEFAULT 0,
    def_amount_cents INTEGER NOT NULL DEFAULT 0,
    def_category TEXT NOT NULL DEFAULT 'none',
    source TEXT NOT NULL,
    created_at INTEGER NOT NULL,           -- epoch seconds
    updated_at INTEGER NOT NULL
  ) STRICT;
  -- Covering indexes: every list query is answered from an index without touching the rows until the page
  -- itself is read. The time index carries the search dimensions so a time-ordered scan can filter on them;
  -- each dimension index carries the other dimensions, so a search splits into disjoint parts (or its complement).
  CREATE INDEX tx_time ON transactions(customer_pk, at_utc, status, station_pk, driver_pk, card_pk);
  CREATE INDEX tx_status_time ON transactions(customer_pk, status, at_utc);
  CREATE INDEX tx_station ON transactions(customer_pk, station_pk, at_utc, status, driver_pk, card_pk);
  CREATE INDEX tx_driver ON transactions(customer_pk, driver_pk, at_utc, status, station_pk, card_pk);
  CREATE INDEX tx_card ON transactions(customer_pk, card_pk, at_utc, status, station_pk, driver_pk);

  -- Transactions per customer, UTC day and status, kept exact by triggers: totals and deep pages of unsearched
  -- lists read a few hundred of these rows instead of counting or skipping a million index entries.
  CREATE TABLE tx_day_counts (
    customer_pk INTEGER NOT NULL,
    day INTEGER NOT NULL,                  -- at_utc / 86400
    status TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (customer_pk, day, status)
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER tx_day_counts_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO tx_day_counts (customer_pk, day, status, n) VALUES (NEW.customer_pk, NEW.at_utc / 86400, NEW.status, 1)
      ON CONFLICT (customer_pk, day, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER tx_day_counts_delete AFTER DELETE ON transactions BEGIN
    UPDATE tx_day_counts SET n = n - 1 WHERE customer_pk = OLD.customer_pk AND day = OLD.at_utc / 86400 AND status = OLD.status;
  END;
  CREATE TRIGGER tx_day_counts_update AFTER UPDATE OF customer_pk, at_utc, status ON transactions BEGIN
    UPDATE tx_day_counts SET n = n - 1 WHERE customer_pk = OLD.customer_pk AND day = OLD.at_utc / 86400 AND status = OLD.status;
    INSERT INTO tx_day_counts (customer_pk, day, status, n) VALUES (NEW.customer_pk, NEW.at_utc / 86400, NEW.status, 1)
      ON CONFLICT (customer_pk, day, status) DO UPDATE SET n = n + 1;
  END;
  `,
  // Transactions per customer, station, 32-day bucket (at_utc / 2764800) and status, kept exact by triggers like
  // tx_day_counts. A search matching many stations (a brand: 'pilot' is 584 stations, a quarter of the rows) reads
  // its total and the buckets of a deep page from here instead of counting or grouping 244,000 index entries.
  // Keyed bucket first, so grouping by bucket follows the key. Databases seeded before it are backfilled here.
  `
  CREATE TABLE tx_station_buckets (
    customer_pk INTEGER NOT NULL,
    bucket INTEGER NOT NULL,               -- at_utc / 2764800 (32 days)
    station_pk INTEGER NOT NULL,
    status TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (customer_pk, bucket, station_pk, status)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO tx_station_buckets (customer_pk, bucket, station_pk, status, n)
    SELECT customer_pk, at_utc / 2764800, station_pk, status, COUNT(*) FROM transactions GROUP BY 1, 2, 3, 4;
  CREATE TRIGGER tx_station_buckets_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO tx_station_buckets (customer_pk, bucket, station_pk, status, n) VALUES (NEW.customer_pk, NEW.at_utc / 2764800, NEW.station_pk, NEW.status, 1)
      ON CONFLICT (customer_pk, bucket, station_pk, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER tx_station_buckets_delete AFTER DELETE ON transactions BEGIN
    UPDATE tx_station_buckets SET n = n - 1
      WHERE customer_pk = OLD.customer_pk AND bucket = OLD.at_utc / 2764800 AND station_pk = OLD.station_pk AND status = OLD.status;
  END;
  CREATE TRIGGER tx_station_buckets_update AFTER UPDATE OF customer_pk, at_utc, status, station_pk ON transactions BEGIN
    UPDATE tx_station_buckets SET n = n - 1
      WHERE customer_pk = OLD.customer_pk AND bucket = OLD.at_utc / 2764800 AND station_pk = OLD.station_pk AND status = OLD.status;
    INSERT INTO tx_station_buckets (customer_pk, bucket, station_pk, status, n) VALUES (NEW.customer_pk, NEW.at_utc / 2764800, NEW.station_pk, NEW.status, 1)
      ON CONFLICT (customer_pk, bucket, station_pk, status) DO UPDATE SET n = n + 1;
  END;
  `,
];

/** Applies every migration not yet applied, each in its own transaction. */
export function migrate(db: Database.Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    const sql = MIGRATIONS[version];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
