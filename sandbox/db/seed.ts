import type Database from "better-sqlite3";
import { amountCents } from "./money";
import { deriveKeyPair, insertKey, SCOPES, type Scope } from "./keys";
import { createRng, type Rng } from "./rng";
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
const HISTORY_DAYS = 730;

export interface CustomerSpec {
  label: string;
  code: string;
  name: string;
  emailDomain: string;
  feeMilli: number;
  createdAt: string;
  drivers: number;
  poolCards: number;
}

export const DEMO_CUSTOMER: CustomerSpec = {
  label: "demo",
  code: "PFL",
  name: "Prairie Freight Lines",
  emailDomain: "prairiefreight.example",
  feeMilli: 50,
  createdAt: "2022-03-14T15:04:05Z",
  drivers: 48,
  poolCards: 6,
};
export const OTHER_CUSTOMER: CustomerSpec = {
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

const FIRST = [
  "James",
  "Maria",
  "Robert",
  "Linda",
  "Michael",
  "Patricia",
  "David",
  "Jennifer",
  "William",
  "Elizabeth",
  "Carlos",
  "Aisha",
  "Thomas",
  "Nguyen",
  "Daniel",
  "Sofia",
  "Joseph",
  "Olga",
  "Marcus",
  "Priya",
  "Kevin",
  "Grace",
  "Luis",
  "Hannah",
  "Andre",
  "Mei",
  "Brian",
  "Fatima",
  "Tyrone",
  "Ingrid",
  "Raj",
  "Dolores",
  "Wade",
  "Keisha",
  "Bjorn",
  "Rosa",
] as const;
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Okafor",
  "Kowalski",
  "Nakamura",
  "O'Brien",
  "Schmidt",
  "Petrov",
  "Haddad",
  "Lindqvist",
  "Begay",
  "Dubois",
] as const;

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
    const stationRows = stations.map((s) => {
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

interface StationRow {
  pk: number;
  seed: ReturnType<typeof generateStations>[number];
}

function seedCustomer(
  db: Database.Database,
  rng: Rng,
  spec: CustomerSpec,
  stations: readonly StationRow[],
  count: number,
  anchorSec: number,
): void {
  const customerId = rng.uuid();
  const customerPk = Number(
    db
      .prepare("INSERT INTO customers (id, code, name, active, fee_milli, created_at) VALUES (?, ?, ?, 1, ?, ?)")
      .run(customerId, spec.code, spec.name, spec.feeMilli, spec.createdAt).lastInsertRowid,
  );

  // Drivers: each has a home station and runs mostly within the stations nearest to it.
  const insertDriver = db.prepare(
    "INSERT INTO drivers (id, customer_pk, name, email, truck_id) VALUES (?, ?, ?, ?, ?)",
  );
  const insertCard = db.prepare("INSERT INTO cards (customer_pk, last4, type) VALUES (?, ?, ?)");
  const usedLast4 = new Set<string>();
  const newCard = (type: string): number => {
    let last4: string;
    do last4 = String(rng.int(0, 9999)).padStart(4, "0");
    while (usedLast4.has(last4));
    usedLast4.add(last4);
    return Number(insertCard.run(customerPk, last4, type).lastInsertRowid);
  };
  const usedNames = new Set<string>();
  const drivers = Array.from({ length: spec.drivers }, (_, i) => {
    let first: string, last: string;
    do {
      first = rng.pick(FIRST);
      last = rng.pick(LAST);
    } while (usedNames.has(`${first} ${last}`));
    usedNames.add(`${first} ${last}`);
    const truck = rng.chance(0.15) ? null : `T-${String(100 + i * 7 + rng.int(0, 6))}`;
    const email = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "") + `@${spec.emailDomain}`;
    const pk = Number(insertDriver.run(rng.uuid(), customerPk, `${first} ${last}`, email, truck).lastInsertRowid);
    const card = newCard(rng.chance(0.8) ? "fleet" : "universal");
    const home = rng.pick(stations).seed;
    const nearby = nearestStations(stations, home, NEARBY_STATIONS);
    return { pk, card, nearby };
  });
  const poolCards = Array.from({ length: spec.poolCards }, () => newCard("pool"));

  // Times: uniform over the history, sorted so pk (insertion order) follows time; local hours weighted to daytime.
  const spanSec = HISTORY_DAYS * 86_400;
  const times = Array.from({ length: count }, () => anchorSec - 1 - Math.floor(rng.next() * spanSec)).sort(
    (a, b) => a - b,
  );

  const insertTx = db.prepare(
    `INSERT INTO transactions (id, customer_pk, ref, at_utc, tz_offset_min, status, product, gallons_milli, price_milli,
       amount_cents, station_pk, driver_pk, card_pk, def_gallons_milli, def_amount_cents, def_category, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let ref = rng.int(1_000_000, 4_000_000);
  for (const at of times) {
    const driver = rng.pick(drivers);
    const station = rng.chance(0.9) ? rng.pick(driver.nearby) : rng.pick(stations);
    const s = station.seed;
    const ageDays = (anchorSec - at) / 86_400;
    const status = rng.chance(0.02)
      ? "failed"
      : ageDays < 3
        ? rng.chance(0.5)
          ? "pending"
          : "completed"
        : rng.chance(0.01)
          ? "pending"
          : "completed";
    const isDiesel = rng.chance(0.92);
    const product = isDiesel ? "diesel" : "unleaded";
    const gallonsMilli = isDiesel
      ? Math.round(Math.min(220, Math.max(25, 120 + rng.normal() * 40)) * 1000)
      : Math.round(rng.float(8, 35) * 1000);
    const retail = (isDiesel ? s.prices.diesel : s.prices.unleaded) * priceDrift(at, anchorSec);
    const priceMilli = endIn9(retail) - spec.feeMilli;
    const hasDef = isDiesel && s.prices.def !== null && rng.chance(0.3);
    const defGallons = hasDef ? Math.round(rng.float(2.5, 15) * 1000) : 0;
    const defPrice = hasDef && s.prices.def !== null ? s.prices.def : 0;
    const created = at + rng.int(5, 600);
    const updated = status === "completed" && rng.chance(0.3) ? created + rng.int(600, 86_400) : created;
    insertTx.run(
      rng.uuid(),
      customerPk,
      `FF${String(ref++).padStart(10, "0")}`,
      at,
      offsetMinutes(s.state, at),
      status,
      product,
      gallonsMilli,
      priceMilli,
      amountCents(gallonsMilli, priceMilli),
      station.pk,
      driver.pk,
      rng.chance(0.07) ? rng.pick(poolCards) : driver.card,
      defGallons,
      hasDef ? amountCents(defGallons, defPrice) : 0,
      hasDef ? (rng.chance(0.8) ? "bulk" : "packaged") : "none",
      rng.weighted([
        ["pos", 85],
        ["mobile", 10],
        ["manual", 5],
      ] as const),
      Math.min(created, anchorSec),
      Math.min(Math.max(updated, created), anchorSec),
    );
  }
}

/** How many stations around a driver's home make up the stations the driver mostly fuels at. */
const NEARBY_STATIONS = 60;

/**
 * The `k` stations nearest to `home` (equirectangular distance), nearest first, ties in catalog order: exactly what a
 * stable sort of the whole catalog by distance followed by `slice(0, k)` gives, so seeded data is unchanged. A bounded
 * insertion into a sorted array of k is O(stations × k) in the worst case but O(stations) in practice (most stations
 * are farther than the k-th and rejected by one comparison), where sorting the catalog for every driver took seconds
 * at 50,000 stations.
 */
export function nearestStations<T extends { seed: { lat: number; lng: number } }>(
  stations: readonly T[],
  home: { lat: number; lng: number },
  k: number,
): T[] {
  const cosLat = Math.cos((home.lat * Math.PI) / 180);
  const best: { s: T; d: number }[] = [];
  for (const s of stations) {
    const d = (s.seed.lat - home.lat) ** 2 + ((s.seed.lng - home.lng) * cosLat) ** 2;
    if (best.length === k && d >= (best[k - 1]?.d ?? Infinity)) continue;
    // Insert after every entry with d' <= d: equal distances keep catalog order, as a stable sort does.
    let at = best.length;
    while (at > 0 && (best[at - 1]?.d ?? -Infinity) > d) at--;
    best.splice(at, 0, { s, d });
    if (best.length > k) best.pop();
  }
  return best.map((x) => x.s);
}

/** Market drift over two years: a slow wave plus a seasonal one, ±8% at most; the latest price is the station's. */
function priceDrift(at: number, anchorSec: number): number {
  const days = (anchorSec - at) / 86_400;
  return 1 + 0.05 * Math.sin(days / 97) + 0.03 * Math.sin((days / 365) * 2 * Math.PI);
}

/** Pump prices end in 9 (x.xx9). */
function endIn9(milli: number): number {
  return Math.floor(milli / 10) * 10 + 9;
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
