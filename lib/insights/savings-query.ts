import "server-only";

import { epochMs, localDateOf, type MirrorCatalog, type MirrorStore, whereOf } from "@/lib/mirror";
import type { LocalDateRange } from "@/lib/model";
import type { MissedSaving, SavingsFigures } from "@/lib/model/insight-savings";

import { observedPricesOf } from "./price-observations";
import { computeSavings, NO_SAVINGS, type SavingsParams } from "./savings";
import type { SavingsFill } from "./savings-types";

export interface SavingsFilter {
  driverId?: string | undefined;
  stationId?: string | undefined;
}

/** The customer's completed fills whose purchase-local date is in the range (a driver's or a station's only, if set). */
async function savingsFills(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  scope: SavingsFilter,
): Promise<SavingsFill[]> {
  // Only what the comparison needs (the columns of the index mirror_tx_completed: read from it alone); the names of
  // the few fills the reply lists are read afterwards (detailsOf).
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select(["id", "at_ms", "local_offset_min", "station_id", "product", "gallons_milli", "price_milli"])
    .where((eb) =>
      whereOf(eb, customerId, {
        status: "completed",
        localDays: range,
        driverId: scope.driverId,
        stationId: scope.stationId,
      }),
    )
    .execute();
  return rows.map((r) => {
    const atMs = epochMs(r.at_ms);
    return {
      id: r.id,
      reference: "",
      atMs,
      offsetMin: r.local_offset_min,
      localDate: localDateOf(atMs, r.local_offset_min),
      stationId: r.station_id,
      stationName: "",
      stationCity: "",
      stationState: "",
      driverId: "",
      driverName: "",
      product: r.product,
      gallonsMilli: r.gallons_milli,
      priceMilli: r.price_milli,
    };
  });
}

/** The listed missed savings with their fills' reference, station and driver read from the mirror. */
async function withDetails(store: MirrorStore, customerId: string, top: MissedSaving[]): Promise<MissedSaving[]> {
  if (top.length === 0) return top;
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select(["id", "reference", "station_name", "station_city", "station_state", "driver_id", "driver_name"])
    .where("customer_id", "=", customerId)
    .where(
      "id",
      "in",
      top.map((t) => t.transactionId),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return top.map((t) => {
    const r = byId.get(t.transactionId);
    if (!r) return t;
    return {
      ...t,
      reference: r.reference,
      driver: { id: r.driver_id, name: r.driver_name },
      station: { id: t.station.id, name: r.station_name, city: r.station_city, state: r.station_state },
    };
  });
}

/**
 * The savings of the customer's fills of a range (null: a period the mirror does not cover yet — zeros) against the
 * prices its catalog walks observed: what GET /api/savings computes per period, and what the bench times. A function
 * of the store and plain parameters only (no session, no request state), so it can run wherever the store is open.
 */
export async function savingsFor(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange | null,
  scope: SavingsFilter,
  catalog: MirrorCatalog,
  params: SavingsParams,
): Promise<{ figures: SavingsFigures; top: MissedSaving[] }> {
  if (range === null) return { figures: NO_SAVINGS, top: [] };
  const fills = await savingsFills(store, customerId, range, scope);
  const { figures, top } = computeSavings(
    fills,
    { stations: catalog.stations, observed: observedPricesOf(catalog) },
    params,
  );
  return { figures, top: await withDetails(store, customerId, top) };
}
