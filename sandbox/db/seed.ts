import type Database from "better-sqlite3";

import { deriveKeyPair, insertKey, type Scope, SCOPES } from "./keys";
import { amountCents } from "./money";
import { createRng } from "./rng";
import { type CustomerSpec, seedCustomer, type SeededStation } from "./seed-customer";
import { seedExceptionCases } from "./seed-exceptions";
import { generateStations } from "./stations";
import { isoUtc, offsetMinutes } from "./timezones";

/**
 * Deterministic seed. The data is a pure function of (seed, anchor, sizes): `anchor` is the moment the history
 * ends (default: the start of the current UTC hour, recorded in `meta`), so two seeds with the same numbers give
 * identical databases and the rolling 30-day totals are never empty.
 */
export interface SeedOptions {
  seed: number;
  anchor: Date;
  stations: number;
  transactions: number; // for the demo customer; the other customer gets a tenth (at least 500)
}

export const DEFAULT_SEED = 20261120;
export const DEFAULT_STATIONS = 2500;
export const DEFAULT_TRANSACTIONS = 25_000;

const DEMO_CUSTOMER: CustomerSpec = {
  label: "demo",
  code: "PFL",
  name: "Prairie Freight Lines",
  emailDomain: "prairiefreight.example",
  feeMilli: 50,
  createdAt: "2022-03-14T15:04:05Z",
  drivers: 48,
  poolCards: 6,
};
const OTHER_CUSTOMER: CustomerSpec = {
  label: "other",
  code: "CHI",
  name: "Coastal Haulers Inc.",
  emailDomain: "coastalhaulers.example",
  feeMilli: 35,
  createdAt: "2023-07-02T09:30:00Z",
  drivers: 12,
  poolCards: 2,
};

/** The demo keys the seed creates. Their secrets are derived from the seed (see deriveKeyPair), never stored. */
export const DEMO_KEYS = [
  { label: "demo-full", customer: DEMO_CUSTOMER, scopes: SCOPES, allowIps: null, revoked: false },
  {
    label: "demo-no-transactions",
    customer: DEMO_CUSTOMER,
    scopes: ["account", "locations"],
    allowIps: null,
    revoked: false,
  },
  { label: "demo-revoked", customer: DEMO_CUSTOMER, scopes: SCOPES, allowIps: null, revoked: true },
  // TEST-NET-3 addresses only: loopback is excluded on purpose, so this key always gets 401 under the allow-list rule.
  {
    label: "demo-allowlist",
    customer: DEMO_CUSTOMER,
    scopes: SCOPES,
    allowIps: ["203.0.113.10", "203.0.113.11"],
    revoked: false,
  },
  { label: "other-full", customer: OTHER_CUSTOMER, scopes: SCOPES, allowIps: null, revoked: false },
] as const satisfies readonly {
  label: string;
  customer: CustomerSpec;
  scopes: readonly Scope[];
  allowIps: readonly string[] | null;
  revoked: boolean;
}[];

export type DemoKeyLabel = (typeof DEMO_KEYS)[number]["label"];

export function demoCredentials(seed: number, label: DemoKeyLabel): { keyId: string; secret: string } {
  return deriveKeyPair(seed, label);
}
export function seedDatabase(db: Database.Database, options: SeedOptions): void {
  const rng = createRng(options.seed);
  const anchorSec = Math.floor(options.anchor.getTime() / 1000);
  db.transaction(() => {
    const setMeta = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    setMeta.run("seed", String(options.seed));
    setMeta.run("anchor", options.anchor.toISOString());
    setMeta.run("stations", String(options.stations));
    setMeta.run("transactions", String(options.transactions));

    const stations = generateStations(rng, options.stations, options.anchor);
    const insertStation = db.prepare(
      `INSERT INTO stations (id, loc_num, name, brand, address, city, state, zip, lat, lng, phone, amenities, has_def,
        diesel_milli, unleaded_milli, def_milli, price_updated_at)
       VALUES (@id, @locNum, @name, @brand, @address, @city, @state, @zip, @lat, @lng, @phone, @amenities, @hasDef,
        @diesel, @unleaded, @def, @priceUpdatedAt)`,
    );
    const stationRows = stations.map((s): SeededStation => {
      const info = insertStation.run({
        ...s,
        amenities: JSON.stringify(s.amenities),
        hasDef: s.hasDef ? 1 : 0,
        diesel: s.prices.diesel,
        unleaded: s.prices.unleaded,
        def: s.prices.def,
      });
      return { pk: Number(info.lastInsertRowid), seed: s };
    });

    for (const spec of [DEMO_CUSTOMER, OTHER_CUSTOMER]) {
      const count =
        spec === DEMO_CUSTOMER ? options.transactions : Math.max(500, Math.round(options.transactions / 10));
      seedCustomer(db, rng, spec, stationRows, count, anchorSec);
    }
    // After the generated history and from a generator of its own: no generated row changes.
    seedExceptionCases(db, options.seed, DEMO_CUSTOMER.code, stationRows, anchorSec);

    const customerPk = (code: string) =>
      (db.prepare("SELECT pk FROM customers WHERE code = ?").get(code) as { pk: number }).pk;
    for (const key of DEMO_KEYS) {
      const pair = deriveKeyPair(options.seed, key.label);
      insertKey(db, {
        ...pair,
        customerPk: customerPk(key.customer.code),
        label: key.label,
        scopes: key.scopes,
        allowIps: key.allowIps,
        createdAt: key.customer.createdAt,
        revokedAt: key.revoked ? isoUtc(anchorSec - 86_400 * 40) : null,
      });
    }
  })();
  db.exec("ANALYZE");
}

/**
 * Adds `count` new transactions for a customer, all dated `atSec` (epoch seconds), the way a live
 * provider keeps receiving them. Used by tests of clients that walk pages while data arrives, and by the CLI.
 */
export function addTransactions(
  db: Database.Database,
  customerCode: string,
  count: number,
  atSec: number,
  seed = Date.now(),
): string[] {
  const rng = createRng(seed);
  const customer = db.prepare("SELECT pk, fee_milli FROM customers WHERE code = ?").get(customerCode) as
    { pk: number; fee_milli: number } | undefined;
  if (!customer) throw new Error(`no customer with code ${customerCode}`);
  const driver = db.prepare("SELECT pk FROM drivers WHERE customer_pk = ? ORDER BY pk LIMIT 1").get(customer.pk) as {
    pk: number;
  };
  const card = db.prepare("SELECT pk FROM cards WHERE customer_pk = ? ORDER BY pk LIMIT 1").get(customer.pk) as {
    pk: number;
  };
  const station = db
    .prepare("SELECT pk, state, diesel_milli FROM stations ORDER BY pk LIMIT 1 OFFSET ?")
    .get(rng.int(0, 50)) as { pk: number; state: string; diesel_milli: number };
  const insert = db.prepare(
    `INSERT INTO transactions (id, customer_pk, ref, at_utc, tz_offset_min, status, product, gallons_milli, price_milli,
       amount_cents, station_pk, driver_pk, card_pk, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 'diesel', ?, ?, ?, ?, ?, ?, 'pos', ?, ?)`,
  );
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = rng.uuid();
      const gallons = rng.int(40_000, 200_000);
      const price = station.diesel_milli - customer.fee_milli;
      insert.run(
        id,
        customer.pk,
        `FL${String(rng.int(0, 9_999_999_999)).padStart(10, "0")}`,
        atSec,
        offsetMinutes(station.state, atSec),
        gallons,
        price,
        amountCents(gallons, price),
        station.pk,
        driver.pk,
        card.pk,
        atSec,
        atSec,
      );
      ids.push(id);
    }
  })();
  return ids;
}
