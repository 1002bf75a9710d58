/**
 * One seeded customer: its drivers (each with a home station and a fleet card), pool cards, and a two-year history
 * of transactions mostly at the stations near each driver's home. Every draw comes from the seed's generator in a
 * fixed order, so the data is a pure function of the seed.
 */
import type Database from "better-sqlite3";

import { FIRST_NAMES, LAST_NAMES } from "./driver-names";
import { amountCents } from "./money";
import type { Rng } from "./rng";
import { pumpPrice } from "./station-attributes";
import type { StationSeed } from "./station-catalog";
import { offsetMinutes } from "./timezones";

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

/** A seeded station: its primary key and what it was generated from. */
export interface SeededStation {
  pk: number;
  seed: StationSeed;
}

interface SeededDriver {
  pk: number;
  card: number;
  nearby: SeededStation[];
}

/** What the transaction loop needs of the customer. */
interface History {
  spec: CustomerSpec;
  customerPk: number;
  stations: readonly SeededStation[];
  drivers: readonly SeededDriver[];
  poolCards: readonly number[];
  anchorSec: number;
}

const HISTORY_DAYS = 730;
/** How many stations around a driver's home make up the stations the driver mostly fuels at. */
const NEARBY_STATIONS = 60;

export function seedCustomer(
  db: Database.Database,
  rng: Rng,
  spec: CustomerSpec,
  stations: readonly SeededStation[],
  count: number,
  anchorSec: number,
): void {
  const customerId = rng.uuid();
  const customerPk = Number(
    db
      .prepare("INSERT INTO customers (id, code, name, active, fee_milli, created_at) VALUES (?, ?, ?, 1, ?, ?)")
      .run(customerId, spec.code, spec.name, spec.feeMilli, spec.createdAt).lastInsertRowid,
  );
  const newCard = cardIssuer(db, rng, customerPk);
  const drivers = seedDrivers(db, rng, { spec, customerPk, stations, newCard });
  const poolCards = Array.from({ length: spec.poolCards }, () => newCard("pool"));

  // Times: uniform over the history, sorted so pk (insertion order) follows time; local hours weighted to daytime.
  const spanSec = HISTORY_DAYS * 86_400;
  const times = Array.from({ length: count }, () => anchorSec - 1 - Math.floor(rng.next() * spanSec)).sort(
    (a, b) => a - b,
  );
  insertHistory(db, rng, { spec, customerPk, stations, drivers, poolCards, anchorSec }, times);
}

/** Inserts cards with last-4 digits unique within the customer; returns each card's pk. */
function cardIssuer(db: Database.Database, rng: Rng, customerPk: number): (type: string) => number {
  const insertCard = db.prepare("INSERT INTO cards (customer_pk, last4, type) VALUES (?, ?, ?)");
  const usedLast4 = new Set<string>();
  return (type) => {
    let last4: string;
    do last4 = String(rng.int(0, 9999)).padStart(4, "0");
    while (usedLast4.has(last4));
    usedLast4.add(last4);
    return Number(insertCard.run(customerPk, last4, type).lastInsertRowid);
  };
}

/** Drivers: each has a home station and runs mostly within the stations nearest to it. */
function seedDrivers(
  db: Database.Database,
  rng: Rng,
  {
    spec,
    customerPk,
    stations,
    newCard,
  }: {
    spec: CustomerSpec;
    customerPk: number;
    stations: readonly SeededStation[];
    newCard: (type: string) => number;
  },
): SeededDriver[] {
  const insertDriver = db.prepare(
    "INSERT INTO drivers (id, customer_pk, name, email, truck_id) VALUES (?, ?, ?, ?, ?)",
  );
  const usedNames = new Set<string>();
  return Array.from({ length: spec.drivers }, (_, i) => {
    let first: string, last: string;
    do {
      first = rng.pick(FIRST_NAMES);
      last = rng.pick(LAST_NAMES);
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
}

function insertHistory(db: Database.Database, rng: Rng, history: History, times: readonly number[]): void {
  const insertTx = db.prepare(
    `INSERT INTO transactions (id, customer_pk, ref, at_utc, tz_offset_min, status, product, gallons_milli, price_milli,
       amount_cents, station_pk, driver_pk, card_pk, def_gallons_milli, def_amount_cents, def_category, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let ref = rng.int(1_000_000, 4_000_000);
  for (const at of times) insertTx.run(...transactionValues(rng, history, at, ref++));
}

/** The column values of one transaction at `at`, in the order of the INSERT above. */
function transactionValues(rng: Rng, history: History, at: number, ref: number): unknown[] {
  const { spec, customerPk, stations, poolCards, anchorSec } = history;
  const driver = rng.pick(history.drivers);
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
  const priceMilli = pumpPrice(retail) - spec.feeMilli;
  const hasDef = isDiesel && s.prices.def !== null && rng.chance(0.3);
  const defGallons = hasDef ? Math.round(rng.float(2.5, 15) * 1000) : 0;
  const defPrice = hasDef && s.prices.def !== null ? s.prices.def : 0;
  const created = at + rng.int(5, 600);
  const updated = status === "completed" && rng.chance(0.3) ? created + rng.int(600, 86_400) : created;
  return [
    rng.uuid(),
    customerPk,
    `FF${String(ref).padStart(10, "0")}`,
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
  ];
}

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
