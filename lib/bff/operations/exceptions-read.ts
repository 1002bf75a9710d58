import "server-only";

import type { CatalogStation, HistoryFill, Purchase } from "@/lib/insights/exceptions/types";
import { localDayWhere, type MirrorStore } from "@/lib/mirror";
import type { LocalDateRange, Station } from "@/lib/model";
import { toMinorUnits } from "@/lib/model";

/**
 * What the exception rules read of the mirror: a period's purchases (every status, oldest first) and the narrow
 * history the "usual" rules compare with (fills with a truck: truck, product, gallons). Both by local date.
 */

const STATUSES = new Set(["completed", "pending", "failed"]);

const asStatus = (status: string): Purchase["status"] =>
  STATUSES.has(status) ? (status as Purchase["status"]) : "pending";

export async function readPurchases(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
): Promise<Purchase[]> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select([
      "id",
      "at_ms",
      "local_offset_min",
      "status",
      "product",
      "gallons_milli",
      "price_milli",
      "station_id",
      "station_name",
      "driver_id",
      "driver_name",
      "truck_id",
      "card_last4",
      "def_gallons_milli",
    ])
    .where((eb) => eb.and([eb("customer_id", "=", customerId), localDayWhere(eb, range)]))
    .orderBy("at_ms")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    // pg reads bigint as a string; epoch milliseconds are exact as doubles.
    atMs: Number(r.at_ms),
    offsetMin: r.local_offset_min,
    status: asStatus(r.status),
    product: r.product,
    gallonsMilli: r.gallons_milli,
    priceMilli: r.price_milli,
    stationId: r.station_id,
    stationName: r.station_name,
    driverId: r.driver_id,
    driverName: r.driver_name,
    truckId: r.truck_id,
    cardLast4: r.card_last4,
    defGallonsMilli: r.def_gallons_milli ?? 0,
  }));
}

export async function readHistory(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange,
): Promise<HistoryFill[]> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select(["truck_id", "product", "gallons_milli"])
    .where((eb) =>
      eb.and([
        eb("customer_id", "=", customerId),
        localDayWhere(eb, range),
        eb("truck_id", "is not", null),
        eb("status", "!=", "failed"),
      ]),
    )
    .execute();
  return rows.map((r) => ({
    status: "completed",
    truckId: r.truck_id,
    product: r.product,
    gallonsMilli: r.gallons_milli,
  }));
}

/** The catalog by station id, as the rules read it: today's diesel price in thousandths and the place. */
export function catalogIndex(stations: readonly Station[]): Map<string, CatalogStation> {
  return new Map(
    stations.map((s) => [
      s.id,
      { dieselPriceMilli: s.price === null ? null : Number(toMinorUnits(s.price, 3)), lat: s.lat, lng: s.lng },
    ]),
  );
}
