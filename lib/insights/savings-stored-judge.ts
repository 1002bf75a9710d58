import "server-only";

import { sql } from "kysely";

import {
  epochMs,
  FLAG,
  localDateOf,
  type MirrorCatalog,
  type MirrorStore,
  readCatalog,
  stationSightings,
} from "@/lib/mirror";

import { observedPricesOf } from "./price-observations";
import { judgeFill, type SavingsParams } from "./savings";
import { Comparer } from "./savings-compare";

/**
 * The reading half of the stored comparisons' refresh (./savings-stored.ts): up to `limit` pending fills joined to
 * their rows, judged with the recorded catalog as computeSavings judges them. It only reads, so it runs in the worker
 * pool's read-only connection (lib/bff/platform/off-thread, task `savings.judge-pending`) or inline on PostgreSQL; the writing
 * half stores the judgements with each fill's pending counter as it was read HERE, so a fill marked again meanwhile
 * stays pending. The pending rows are read BEFORE the catalog: a walk that lands between the two reads marked its
 * fills after their counters were read (their write keeps them pending); the other order could store a judgement
 * made with the old catalog under the walk's mark.
 */

interface JudgedRow {
  customer_id: string;
  tx_id: string;
  pending: number;
  at_ms: number;
  local_date: string;
  driver_id: string;
  station_id: string;
  kind: number;
  gallons_milli: number;
  price_milli: number;
  own_checked: number | null;
  flags: number;
  above_own_micro: number;
  saved_micro: number;
  above_median_micro: number;
  cheaper_id: string | null;
  cheaper_price_milli: number | null;
  cheaper_miles: number | null;
  cheaper_apart_ms: number | null;
}

/** A batch judged: plain data (it crosses from the worker thread). `read`: pending fills read (0: none left). */
export interface JudgedBatch {
  read: number;
  /** The latest instant read (the next batch's `afterMs` in time order); null when none was read. */
  lastAtMs: number | null;
  rows: JudgedRow[];
  /** Fills no longer completed (or deleted), with the counter read: their comparison is removed. */
  gone: { id: string; pending: number }[];
  /** The purchase-local dates whose sums change: each fill's old date and its new one. */
  dates: string[];
}

/** Fills judged between two yields to the event loop (inline on PostgreSQL, the loop serves requests meanwhile). */
const YIELD_EVERY = 250;

/**
 * Up to `limit` pending fills: by the pending index when few are pending; from `afterMs` on in time order (the
 * instant's index, `+pending` keeping SQLite off the pending index and its sort) when many are, so a batch's fills lie
 * on a few consecutive dates and summing its dates again stays small.
 */
const readPending = (store: MirrorStore, customerId: string, limit: number, afterMs: number | undefined) => {
  const q = store.db
    .selectFrom("mirror_fill_comparisons as c")
    .leftJoin("mirror_transactions as t", (j) =>
      j.onRef("t.customer_id", "=", "c.customer_id").onRef("t.id", "=", "c.tx_id"),
    )
    .select([
      "c.tx_id",
      "c.pending",
      "c.local_date as old_date",
      "c.at_ms as marked_at_ms",
      "t.status",
      "t.at_ms",
      "t.local_offset_min",
      "t.station_id",
      "t.driver_id",
      "t.product",
      "t.gallons_milli",
      "t.price_milli",
    ])
    .where("c.customer_id", "=", customerId);
  if (afterMs === undefined) return q.where("c.pending", ">", 0).limit(limit).execute();
  return q
    .where(sql<number>`+c.pending`, ">", 0)
    .where("c.at_ms", ">=", afterMs)
    .orderBy("c.at_ms")
    .limit(limit)
    .execute();
};

type Pending = Awaited<ReturnType<typeof readPending>>[number];

/**
 * What the recorded catalog looks like now, cheaply: a walk changes a station's last sighting or adds a price record;
 * a purge empties both. The comparer (and its memo) is kept while this stays the same.
 */
async function catalogVersion(store: MirrorStore, customerId: string): Promise<string> {
  const st = await stationSightings(store, customerId);
  const pr = await store.db
    .selectFrom("mirror_station_prices")
    .select((eb) => [eb.fn.countAll<string | number>().as("n"), eb.fn.max("seen_ms").as("last")])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return [st?.n, st?.last, pr?.n, pr?.last].map((v) => String(v ?? "")).join("/");
}

/** One comparer per customer, kept across batches (per thread) while the catalog and parameters stay the same. */
const comparers = new Map<string, { key: string; comparer: Comparer }>();

async function comparerFor(store: MirrorStore, customerId: string, params: SavingsParams): Promise<Comparer> {
  const key = `${await catalogVersion(store, customerId)}|${String(params.radiusMiles)}|${String(params.windowMs)}`;
  const kept = comparers.get(customerId);
  if (kept?.key === key) return kept.comparer;
  const catalog: MirrorCatalog = await readCatalog(store, customerId);
  const comparer = new Comparer(catalog.stations, observedPricesOf(catalog), params.radiusMiles, params.windowMs);
  comparers.set(customerId, { key, comparer });
  return comparer;
}

export async function judgePendingBatch(
  store: MirrorStore,
  args: { customerId: string; params: SavingsParams; limit: number; afterMs?: number },
): Promise<JudgedBatch> {
  const pending = await readPending(store, args.customerId, args.limit, args.afterMs);
  if (pending.length === 0) return { read: 0, lastAtMs: null, rows: [], gone: [], dates: [] };
  const comparer = await comparerFor(store, args.customerId, args.params);
  const dates = new Set<string>();
  const gone: JudgedBatch["gone"] = [];
  const rows: JudgedRow[] = [];
  for (const [i, p] of pending.entries()) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    if (p.old_date !== "") dates.add(p.old_date);
    const row = judgeOne(comparer, args.customerId, p);
    if (row === null) gone.push({ id: p.tx_id, pending: p.pending });
    else {
      dates.add(row.local_date);
      rows.push(row);
    }
  }
  const last = pending.at(-1)?.marked_at_ms;
  return { read: pending.length, lastAtMs: last === undefined ? null : epochMs(last), rows, gone, dates: [...dates] };
}

function judgeOne(comparer: Comparer, customerId: string, p: Pending): JudgedRow | null {
  if (p.status !== "completed" || p.at_ms === null || p.station_id === null || p.driver_id === null) return null;
  const fill = {
    atMs: epochMs(p.at_ms),
    product: p.product ?? "",
    stationId: p.station_id,
    priceMilli: p.price_milli ?? 0,
    gallonsMilli: p.gallons_milli ?? 0,
  };
  const j = judgeFill(comparer, fill);
  const cheapest = j.saving ? (j.comparison?.cheapest ?? null) : null;
  return {
    customer_id: customerId,
    tx_id: p.tx_id,
    pending: p.pending,
    at_ms: fill.atMs,
    local_date: localDateOf(fill.atMs, p.local_offset_min),
    driver_id: p.driver_id,
    station_id: fill.stationId,
    kind: j.kind,
    gallons_milli: fill.gallonsMilli,
    price_milli: fill.priceMilli,
    own_checked: j.ownChecked === null ? null : Number(j.ownChecked),
    flags: (j.aboveOwn ? FLAG.aboveOwn : 0) | (j.saving ? FLAG.saving : 0) | (j.aboveMedian ? FLAG.aboveMedian : 0),
    above_own_micro: j.aboveOwnMicro,
    saved_micro: j.savedMicro,
    above_median_micro: j.aboveMedianMicro,
    cheaper_id: cheapest?.neighbour.station.id ?? null,
    cheaper_price_milli: cheapest?.observed.priceMilli ?? null,
    cheaper_miles: cheapest?.neighbour.miles ?? null,
    cheaper_apart_ms: cheapest?.observed.apartMs ?? null,
  };
}
