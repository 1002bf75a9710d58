import type { Transaction as KyselyTransaction } from "kysely";

import { fromMinorUnits, type Station, toMinorUnits } from "@/lib/model";

import { markReachedFills, stationsBefore } from "./catalog-reach";
import { purgeComparisons } from "./comparisons";
import { epochMs } from "./rows";
import type { MirrorDatabase } from "./schema";
import { lockCustomerWrites } from "./store-writes";
import { DAY_MS } from "./sync-days";
import type { Db, MirrorCatalog, MirrorDialect, PriceRecord, StoreHandle } from "./types";

/**
 * The station catalog and its price history in the mirror (issue 16 item 4). Every catalog walk of a mirrored customer
 * is recorded: the stations it listed (upserted, with the walk's time as `last_seen_ms`) and, per station, a price
 * record only when the price differs from the station's latest record — so an unchanged catalog adds nothing, and
 * recording the same walk twice is a no-op. Prices are exact thousandths of a dollar. The reader answers the price in
 * force at a station on a local date (the latest record that began before that day ended), or null when history does
 * not reach back that far.
 */

/** 200 stations × 12 columns stays far below both stores' bound-parameter limits. */
const STATION_BATCH = 200;
const PRICE_BATCH = 500;

export interface WalkRecorded {
  stations: number;
  /** Price records added: stations whose price changed, or was seen for the first time. */
  priceChanges: number;
}

/** The instant a purchase-local date ends: the next local midnight in that purchase's offset (null = UTC). */
export function localDayEndMs(localDate: string, offsetMin: number | null): number {
  return Date.parse(`${localDate}T00:00:00Z`) + DAY_MS - (offsetMin ?? 0) * 60_000;
}

/**
 * The price in force during a local date: the latest record that began before the day ended (`records` oldest first);
 * null when the station's history begins later (unknown, not "no price").
 */
export function priceInForce(
  records: readonly PriceRecord[] | undefined,
  localDate: string,
  offsetMin: number | null,
): number | null {
  return priceInForceBefore(records, localDayEndMs(localDate, offsetMin));
}

/** The price of the latest record that began before `endMs` (`records` oldest first); null when none did. */
function priceInForceBefore(records: readonly PriceRecord[] | undefined, endMs: number): number | null {
  if (records === undefined) return null;
  return records[countBefore(records, endMs, (r) => r.updatedMs) - 1]?.priceMilli ?? null;
}

/** How many of the sorted values lie before `endMs` (binary search). */
export function countBefore<T>(sorted: readonly T[], endMs: number, valueOf: (item: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const item = sorted[mid];
    if (item !== undefined && valueOf(item) < endMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Records one catalog walk of the customer (see the module comment); idempotent. */
export function recordCatalogWalk(
  store: StoreHandle,
  customerId: string,
  stations: readonly Station[],
  seenMs: number,
): Promise<WalkRecorded> {
  return store.transaction((trx) => recordIn(trx, store.dialect, customerId, stations, seenMs));
}

async function recordIn(
  trx: KyselyTransaction<MirrorDatabase>,
  dialect: MirrorDialect,
  customerId: string,
  stations: readonly Station[],
  seenMs: number,
): Promise<WalkRecorded> {
  // Two instances recording the same customer's walk at once would both read "no change" or both add one record.
  await lockCustomerWrites(trx, dialect, `catalog:${customerId}`);
  const unique = [...new Map(stations.map((s) => [s.id, s])).values()];
  const before = await stationsBefore(trx, customerId);
  for (let i = 0; i < unique.length; i += STATION_BATCH) {
    const rows = unique.slice(i, i + STATION_BATCH).map((s) => ({
      customer_id: customerId,
      id: s.id,
      loc_num: s.locNum,
      name: s.name,
      brand: s.brand,
      address: s.address,
      city: s.city,
      state: s.state,
      lat: s.lat,
      lng: s.lng,
      first_seen_ms: seenMs,
      last_seen_ms: seenMs,
    }));
    await trx
      .insertInto("mirror_stations")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["customer_id", "id"]).doUpdateSet((eb) => ({
          loc_num: eb.ref("excluded.loc_num"),
          name: eb.ref("excluded.name"),
          brand: eb.ref("excluded.brand"),
          address: eb.ref("excluded.address"),
          city: eb.ref("excluded.city"),
          state: eb.ref("excluded.state"),
          lat: eb.ref("excluded.lat"),
          lng: eb.ref("excluded.lng"),
          last_seen_ms: eb.ref("excluded.last_seen_ms"),
        })),
      )
      .execute();
  }
  const latest = new Map<string, PriceRecord>();
  for (const [id, records] of await priceRecords(trx, customerId)) {
    const last = records.at(-1);
    if (last) latest.set(id, last);
  }
  const added: { customer_id: string; station_id: string; updated_ms: number; price_milli: number; seen_ms: number }[] =
    [];
  for (const s of unique) {
    // A station without a price says nothing about its price: the last known one stays the latest.
    if (s.price === null) continue;
    const priceMilli = Number(toMinorUnits(s.price, 3));
    const last = latest.get(s.id);
    if (last?.priceMilli === priceMilli) continue;
    const stamped = s.priceUpdatedAt === null ? seenMs : Date.parse(s.priceUpdatedAt);
    const updatedMs = last !== undefined && stamped <= last.updatedMs ? Math.max(seenMs, last.updatedMs + 1) : stamped;
    added.push({
      customer_id: customerId,
      station_id: s.id,
      updated_ms: updatedMs,
      price_milli: priceMilli,
      seen_ms: seenMs,
    });
  }
  for (let i = 0; i < added.length; i += PRICE_BATCH)
    await trx
      .insertInto("mirror_station_prices")
      .values(added.slice(i, i + PRICE_BATCH))
      .onConflict((oc) => oc.columns(["customer_id", "station_id", "updated_ms"]).doNothing())
      .execute();
  await markReachedFills(trx, customerId, unique, before, latest, added, seenMs);
  return { stations: unique.length, priceChanges: added.length };
}

/** Every price record of the customer, by station, oldest first. */
async function priceRecords(db: Db, customerId: string, stationId?: string): Promise<Map<string, PriceRecord[]>> {
  let q = db
    .selectFrom("mirror_station_prices")
    .select(["station_id", "updated_ms", "price_milli", "seen_ms"])
    .where("customer_id", "=", customerId);
  if (stationId !== undefined) q = q.where("station_id", "=", stationId);
  const rows = await q.orderBy("station_id").orderBy("updated_ms").execute();
  const byStation = new Map<string, PriceRecord[]>();
  for (const r of rows) {
    let list = byStation.get(r.station_id);
    if (!list) byStation.set(r.station_id, (list = []));
    list.push({ updatedMs: epochMs(r.updated_ms), priceMilli: r.price_milli, seenMs: epochMs(r.seen_ms) });
  }
  return byStation;
}

/** The customer's catalog as the mirror holds it (stations with coordinates, price records). */
export async function readCatalog(store: StoreHandle, customerId: string): Promise<MirrorCatalog> {
  const db = store.db;
  const rows = await db.selectFrom("mirror_stations").selectAll().where("customer_id", "=", customerId).execute();
  const lastWalkMs = rows.reduce<number | null>((max, r) => Math.max(max ?? 0, epochMs(r.last_seen_ms)), null);
  const prices = await priceRecords(db, customerId);
  let historyFromMs: number | null = null;
  for (const records of prices.values()) {
    const first = records[0]?.updatedMs;
    if (first !== undefined && (historyFromMs === null || first < historyFromMs)) historyFromMs = first;
  }
  const stations = rows.map((r) => ({
    id: r.id,
    name: r.name,
    brand: r.brand,
    address: r.address,
    city: r.city,
    state: r.state,
    lat: r.lat,
    lng: r.lng,
    current: epochMs(r.last_seen_ms) === lastWalkMs,
    lastSeenMs: epochMs(r.last_seen_ms),
  }));
  return { stations, prices, lastWalkMs, historyFromMs };
}

/** The customer's recorded stations: how many, and the latest sighting (a walk's instant; NULL for none). One read. */
export async function stationSightings(
  store: StoreHandle,
  customerId: string,
): Promise<{ n: string | number; last: string | number | null } | undefined> {
  // MAX over no rows is NULL, which Kysely's types do not say.
  return store.db
    .selectFrom("mirror_stations")
    .select((eb) => [eb.fn.countAll<string | number>().as("n"), eb.fn.max("last_seen_ms").as("last")])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
}

/** What GET /api/savings says of the catalog: how many stations, the latest walk, where price history begins. */
export async function catalogFacts(
  store: StoreHandle,
  customerId: string,
): Promise<{ stations: number; lastWalkMs: number | null; historyFromMs: number | null }> {
  const st = await stationSightings(store, customerId);
  const pr = await store.db
    .selectFrom("mirror_station_prices")
    .select((eb) => eb.fn.min("updated_ms").as("first"))
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  // MAX / MIN over no rows are NULL, which Kysely's types do not say.
  const ms = (v: unknown) => (v === null || v === undefined ? null : epochMs(v as number | string));
  return { stations: Number(st?.n ?? 0), lastWalkMs: ms(st?.last), historyFromMs: ms(pr?.first) };
}

/** When the customer's latest catalog walk was recorded (epoch ms), null when none was: one indexed read. */
export async function lastCatalogWalkMs(store: StoreHandle, customerId: string): Promise<number | null> {
  const row = await store.db
    .selectFrom("mirror_stations")
    .select((eb) => eb.fn.max("last_seen_ms").as("last"))
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  // MAX over no rows is NULL, which Kysely's types do not say.
  const last = row?.last as number | string | null | undefined;
  return last === null || last === undefined ? null : epochMs(last);
}

/** The price in force at one station on a local date, as a decimal string; null when history does not know it. */
export async function stationPriceOn(
  store: StoreHandle,
  customerId: string,
  stationId: string,
  localDate: string,
  offsetMin: number | null,
): Promise<string | null> {
  const records = (await priceRecords(store.db, customerId, stationId)).get(stationId);
  const milli = priceInForce(records, localDate, offsetMin);
  return milli === null ? null : fromMinorUnits(BigInt(milli), 3);
}

/** Deletes the customer's catalog and price history, and the savings comparisons made with them (purge, retention). */
export async function purgeCatalog(db: Db, customerId: string): Promise<void> {
  await purgeComparisons(db, customerId);
  await db.deleteFrom("mirror_station_prices").where("customer_id", "=", customerId).execute();
  await db.deleteFrom("mirror_stations").where("customer_id", "=", customerId).execute();
}
