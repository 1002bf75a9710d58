import "server-only";

import { sql } from "kysely";

import { epochMs, FLAG, lockComparisons, markFillsBetween, type MirrorStore } from "@/lib/mirror";

import { FILL_KIND, type SavingsParams } from "./savings";
import { type JudgedBatch, judgePendingBatch } from "./savings-stored-judge";

/**
 * The stored savings comparisons' refresh (lib/mirror/comparisons): the fills the sync or a catalog walk marked pending
 * are judged (./savings-stored-judge.ts, a read: in the worker pool on SQLite) in bounded batches, and each batch is
 * written here on the writing connection with the sums of every purchase-local date it touched. Who runs it: the
 * background loop after the sync's writes and after a catalog walk (lib/bff/sync/comparisons.ts); GET /api/savings
 * only a small bounded batch. Every write of mirror_fill_comparisons holds the customer's `comparisons:` lock
 * (PostgreSQL; SQLite has one writer) and takes no other lock after it, so marks and judgements never deadlock, and a
 * judgement clears a fill's mark only if its counter is still the one read (a fill changed meanwhile stays pending).
 */

/** Fills judged per batch of the background loop (issue 25: bounded batches, the loop yields between them). */
const COMPARE_BATCH = 2_000;

/**
 * Other parameters (radius, window) than the stored comparisons were made with: every fill pending, the new ones
 * kept. The background loop runs it before its batches; a request only reads whether they match.
 */
export function prepareComparisons(store: MirrorStore, customerId: string, params: SavingsParams): Promise<void> {
  return store.transaction(async (trx) => {
    await lockComparisons(trx, store.dialect, customerId);
    await checkParams(trx, customerId, params);
  });
}

/** Writes one judged batch (./savings-stored-judge) and sums its dates again. */
export function writeJudgedBatch(store: MirrorStore, customerId: string, batch: JudgedBatch): Promise<void> {
  if (batch.read === 0) return Promise.resolve();
  return store.transaction(async (trx) => {
    await lockComparisons(trx, store.dialect, customerId);
    await writeJudged(trx, customerId, batch.rows, batch.gone);
    await sumDates(trx, customerId, batch.dates);
  });
}

/** Where a batch reads: from `afterMs` on in time order, or (undefined) by the pending index. */
export interface BatchAsk {
  limit: number;
  afterMs?: number;
}

/**
 * Every pending fill computed, batch after batch: the parameters checked, then — while more than a batch is pending —
 * batches in time order (a cursor on the instant, so each batch's dates are few and summing them again is small),
 * then by the pending index until none is left (the fills marked again behind the cursor). `judge` runs a batch's
 * reading half (the background loop: on the worker pool), `between` runs after each write (the loop: its lease, a
 * yield). Returns how many fills were computed.
 */
export async function compareAllPending(
  store: MirrorStore,
  customerId: string,
  params: SavingsParams,
  options: { batch?: number; judge?: (ask: BatchAsk) => Promise<JudgedBatch>; between?: () => Promise<void> } = {},
): Promise<number> {
  const limit = options.batch ?? COMPARE_BATCH;
  const judge = options.judge ?? ((ask: BatchAsk) => judgePendingBatch(store, { customerId, params, ...ask }));
  await prepareComparisons(store, customerId, params);
  let afterMs =
    (await comparisonsState(store, customerId, params)).pending > limit ? Number.MIN_SAFE_INTEGER : undefined;
  let computed = 0;
  for (;;) {
    const batch = await judge(afterMs === undefined ? { limit } : { limit, afterMs });
    if (batch.read === 0) {
      if (afterMs === undefined) return computed;
      afterMs = undefined;
      continue;
    }
    await writeJudgedBatch(store, customerId, batch);
    computed += batch.rows.length;
    if (afterMs !== undefined) afterMs = batch.lastAtMs ?? afterMs;
    await options.between?.();
  }
}

/** Every pending fill computed here, inline (tests, the bench; the app runs the background loop instead). */
export function refreshComparisons(
  store: MirrorStore,
  customerId: string,
  params: SavingsParams,
  options: { batch?: number } = {},
): Promise<number> {
  return compareAllPending(store, customerId, params, options);
}

/**
 * Where the customer's comparisons stand, in two indexed reads: whether they were made with these parameters, and
 * how many fills are pending (all of them when the parameters differ). `total` (every completed fill) only when some
 * are pending: the steady state reads no more than the pending index.
 */
export async function comparisonsState(
  store: MirrorStore,
  customerId: string,
  params: SavingsParams,
): Promise<{ pending: number; total: number }> {
  const stored = await store.db
    .selectFrom("mirror_comparison_params")
    .select(["radius_miles", "window_ms"])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  const same = stored?.radius_miles === params.radiusMiles && epochMs(stored.window_ms) === params.windowMs;
  const count = async (pendingOnly: boolean) => {
    let q = store.db
      .selectFrom("mirror_fill_comparisons")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("customer_id", "=", customerId);
    if (pendingOnly) q = q.where("pending", ">", 0);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  };
  const pending = same ? await count(true) : null;
  if (pending === 0) return { pending: 0, total: 0 };
  const total = await count(false);
  return { pending: pending ?? total, total };
}

/** Other parameters than the stored comparisons were made with: every fill pending, the new ones kept. */
async function checkParams(trx: Trx, customerId: string, params: SavingsParams): Promise<void> {
  const stored = await trx
    .selectFrom("mirror_comparison_params")
    .select(["radius_miles", "window_ms"])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  if (stored?.radius_miles !== params.radiusMiles || epochMs(stored.window_ms) !== params.windowMs) {
    await markFillsBetween(trx, customerId);
    await trx
      .insertInto("mirror_comparison_params")
      .values({ customer_id: customerId, radius_miles: params.radiusMiles, window_ms: params.windowMs })
      .onConflict((oc) =>
        oc.column("customer_id").doUpdateSet({ radius_miles: params.radiusMiles, window_ms: params.windowMs }),
      )
      .execute();
  }
}

type Judged = Pick<JudgedBatch, "rows" | "gone">;

async function writeJudged(trx: Trx, customerId: string, rows: Judged["rows"], gone: Judged["gone"]): Promise<void> {
  for (const g of gone)
    await trx
      .deleteFrom("mirror_fill_comparisons")
      .where("customer_id", "=", customerId)
      .where("tx_id", "=", g.id)
      .where("pending", "=", g.pending)
      .execute();
  for (let i = 0; i < rows.length; i += WRITE_BATCH)
    await trx
      .insertInto("mirror_fill_comparisons")
      .values(rows.slice(i, i + WRITE_BATCH))
      .onConflict((oc) =>
        oc
          .columns(["customer_id", "tx_id"])
          .doUpdateSet((eb) => ({
            pending: 0,
            at_ms: eb.ref("excluded.at_ms"),
            local_date: eb.ref("excluded.local_date"),
            driver_id: eb.ref("excluded.driver_id"),
            station_id: eb.ref("excluded.station_id"),
            kind: eb.ref("excluded.kind"),
            gallons_milli: eb.ref("excluded.gallons_milli"),
            price_milli: eb.ref("excluded.price_milli"),
            own_checked: eb.ref("excluded.own_checked"),
            flags: eb.ref("excluded.flags"),
            above_own_micro: eb.ref("excluded.above_own_micro"),
            saved_micro: eb.ref("excluded.saved_micro"),
            above_median_micro: eb.ref("excluded.above_median_micro"),
            cheaper_id: eb.ref("excluded.cheaper_id"),
            cheaper_price_milli: eb.ref("excluded.cheaper_price_milli"),
            cheaper_miles: eb.ref("excluded.cheaper_miles"),
            cheaper_apart_ms: eb.ref("excluded.cheaper_apart_ms"),
          }))
          // Written (and cleared) only if no newer mark arrived since its counter was read: else the fill stays
          // pending with the values it had, which its date's sums hold — a judgement made from older data (another
          // batch's, read before a newer one was written) never overwrites a newer one.
          .whereRef("mirror_fill_comparisons.pending", "=", "excluded.pending"),
      )
      .execute();
}

/** 200 rows × 18 columns stays far below both stores' bound-parameter limits. */
const WRITE_BATCH = 200;
const DATE_BATCH = 500;

type Trx = Parameters<Parameters<MirrorStore["transaction"]>[0]>[0];

/** The per-date sums of these dates, summed again from the computed fills. */
async function sumDates(trx: Trx, customerId: string, dates: readonly string[]): Promise<void> {
  for (let i = 0; i < dates.length; i += DATE_BATCH) {
    const batch = dates.slice(i, i + DATE_BATCH);
    await trx
      .deleteFrom("mirror_comparison_days")
      .where("customer_id", "=", customerId)
      .where("local_date", "in", batch)
      .execute();
    await trx
      .insertInto("mirror_comparison_days")
      .columns([
        "customer_id",
        "local_date",
        "kind",
        "n",
        "gallons_milli",
        "own_checked",
        "own_above",
        "above_own_micro",
        "with_saving",
        "saved_micro",
        "with_above_median",
        "above_median_micro",
      ])
      .expression((eb) =>
        eb
          .selectFrom("mirror_fill_comparisons")
          .select([
            "customer_id",
            "local_date",
            "kind",
            sql<number>`count(*)`.as("n"),
            sql<number>`sum(gallons_milli)`.as("gallons_milli"),
            sql<number>`sum(case when own_checked = 1 then 1 else 0 end)`.as("own_checked"),
            sql<number>`sum(case when (flags & ${FLAG.aboveOwn}) <> 0 then 1 else 0 end)`.as("own_above"),
            sql<number>`sum(above_own_micro)`.as("above_own_micro"),
            sql<number>`sum(case when (flags & ${FLAG.saving}) <> 0 then 1 else 0 end)`.as("with_saving"),
            sql<number>`sum(saved_micro)`.as("saved_micro"),
            sql<number>`sum(case when (flags & ${FLAG.aboveMedian}) <> 0 then 1 else 0 end)`.as("with_above_median"),
            sql<number>`sum(above_median_micro)`.as("above_median_micro"),
          ])
          .where("customer_id", "=", customerId)
          .where("local_date", "in", batch)
          .where("kind", ">=", FILL_KIND.compared)
          .groupBy(["customer_id", "local_date", "kind"]),
      )
      .execute();
  }
}
