import "server-only";

import type { MirrorStore } from "@/lib/mirror";
import type { MirrorCatalog } from "@/lib/mirror/catalog";
import { whereOf } from "@/lib/mirror/filter";
import { localDateOf } from "@/lib/mirror/local-dates";
import { epochMs } from "@/lib/mirror/rows";
import type { LocalDateRange } from "@/lib/model";
import type { MissedSaving, SavingsFigures } from "@/lib/model/insight-savings";

import { computeSavings, NO_SAVINGS, type SavingsFill } from "./savings";

export interface SavingsFilter {
  driverId?: string | undefined;
  stationId?: string | undefined;
}

/** The customer's completed fills whose purchase-local date is in the range (a driver's or a station's only, if set). */
export async function savingsFills(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
  scope: SavingsFilter,
): Promise<SavingsFill[]> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select([
      "id",
      "reference",
      "at_ms",
      "local_offset_min",
      "station_id",
      "station_name",
      "station_city",
      "station_state",
      "driver_id",
      "driver_name",
      "product",
      "gallons_milli",
      "price_milli",
    ])
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
      reference: r.reference,
      atMs,
      offsetMin: r.local_offset_min,
      localDate: localDateOf(atMs, r.local_offset_min),
      stationId: r.station_id,
      stationName: r.station_name,
      stationCity: r.station_city,
      stationState: r.station_state,
      driverId: r.driver_id,
      driverName: r.driver_name,
      product: r.product,
      gallonsMilli: r.gallons_milli,
      priceMilli: r.price_milli,
    };
  });
}

/**
 * The savings of the customer's fills of a range (null: a period the mirror does not cover yet — zeros) against a
 * catalog: what GET /api/savings computes per period, and what the bench times.
 */
export async function savingsFor(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange | null,
  scope: SavingsFilter,
  catalog: MirrorCatalog,
  radiusMiles: number,
): Promise<{ figures: SavingsFigures; top: MissedSaving[] }> {
  if (range === null) return { figures: NO_SAVINGS, top: [] };
  return computeSavings(await savingsFills(store, customerId, range, scope), catalog, radiusMiles);
}
