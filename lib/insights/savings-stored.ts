import "server-only";

import { sql } from "kysely";

import type { MirrorStore } from "@/lib/mirror";
import { readCatalogIn } from "@/lib/mirror/catalog";
import { FLAG, markFillsBetween } from "@/lib/mirror/comparisons";
import { localDateOf } from "@/lib/mirror/local-dates";
import { epochMs } from "@/lib/mirror/rows";
import { lockCustomerWrites } from "@/lib/mirror/store-writes";

import { observedPricesOf } from "./price-observations";
import { FILL_KIND, judgeFill, type SavingsParams } from "./savings";
import { Comparer } from "./savings-compare";

/**
 * Brings the customer's stored savings comparisons (lib/mirror/comparisons) up to date: the fills the sync or a
 * catalog walk marked pending are judged as computeSavings judges them (judgeFill, over the recorded catalog), written,
 * and the sums of every purchase-local date they were or are now counted on are summed again from the fills. A fill
 * marked again while this ran stays pending (its mark moved on). Returns how many fills were computed.
 */
export async function refreshComparisons(
  store: MirrorStore,
  customerId: string,
  params: SavingsParams,
): Promise<number> {
  return store.transaction(async (trx) => {
    // One refresh at a time, and no catalog walk while the catalog it judges with is read and used.
    await lockCustomerWrites(trx, store.dialect, `comparisons:${customerId}`);
    await lockCustomerWrites(trx, store.dialect, `catalog:${customerId}`);
    await checkParams(trx, customerId, params);
    const pending = await readPending(trx, customerId);
    if (pending.length === 0) return 0;
    const catalog = await readCatalogIn(trx, customerId);
    const comparer = new Comparer(catalog.stations, observedPricesOf(catalog), params.radiusMiles, params.windowMs);
    const { rows, gone, dates } = judgePending(comparer, customerId, pending);
    await writeJudged(trx, customerId, rows, gone);
    await sumDates(trx, customerId, [...dates]);
    return rows.length;
  });
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

const readPending = (trx: Trx, customerId: string) =>
  trx
    .selectFrom("mirror_fill_comparisons as c")
    .leftJoin("mirror_transactions as t", (j) =>
      j.onRef("t.customer_id", "=", "c.customer_id").onRef("t.id", "=", "c.tx_id"),
    )
    .select([
      "c.tx_id",
      "c.pending",
      "c.local_date as old_date",
      "t.status",
      "t.at_ms",
      "t.local_offset_min",
      "t.station_id",
      "t.driver_id",
      "t.product",
      "t.gallons_milli",
      "t.price_milli",
    ])
    .where("c.customer_id", "=", customerId)
    .where("c.pending", ">", 0)
    .execute();

type Pending = Awaited<ReturnType<typeof readPending>>[number];

function judgePending(comparer: Comparer, customerId: string, pending: readonly Pending[]) {
  const dates = new Set<string>();
  const gone: { id: string; pending: number }[] = [];
  const rows = [];
  for (const p of pending) {
    if (p.old_date !== "") dates.add(p.old_date);
    if (p.status !== "completed" || p.at_ms === null || p.station_id === null || p.driver_id === null) {
      gone.push({ id: p.tx_id, pending: p.pending });
      continue;
    }
    const fill = {
      atMs: epochMs(p.at_ms),
      product: p.product ?? "",
      stationId: p.station_id,
      priceMilli: p.price_milli ?? 0,
      gallonsMilli: p.gallons_milli ?? 0,
    };
    const localDate = localDateOf(fill.atMs, p.local_offset_min);
    dates.add(localDate);
    const j = judgeFill(comparer, fill);
    const cheapest = j.saving ? (j.comparison?.cheapest ?? null) : null;
    rows.push({
      customer_id: customerId,
      tx_id: p.tx_id,
      pending: p.pending,
      at_ms: fill.atMs,
      local_date: localDate,
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
    });
  }
  return { rows, gone, dates };
}

type Judged = ReturnType<typeof judgePending>;

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
        oc.columns(["customer_id", "tx_id"]).doUpdateSet((eb) => ({
          // Cleared only if no newer mark arrived since it was read.
          pending: sql`case when mirror_fill_comparisons.pending = excluded.pending then 0 else mirror_fill_comparisons.pending end`,
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
        })),
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
