import type { Insertable, Selectable } from "kysely";

import { fromMinorUnits, toMinorUnits, type Transaction, type TransactionStatus } from "@/lib/model";

import type { MirrorTransactionTable } from "./schema";

/**
 * Transaction ↔ row. Decimals become integers of minor units (cents; thousandths of a gallon and of a dollar per
 * gallon) and back through lib/model's exact conversions, never through a float; `at` becomes epoch milliseconds
 * (the model's `at` is UTC with millisecond precision, so the round trip is exact) and keeps the reported offset.
 */

export type MirrorRow = Selectable<MirrorTransactionTable>;

/** An exact integer from what a driver hands back for an integer column or sum (pg: string; SQLite: number). */
export function exactInteger(value: number | string | bigint | null | undefined): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === "bigint") return value;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an exact integer: ${String(value)}`);
    return BigInt(value);
  }
  return BigInt(value);
}

/** Epoch milliseconds from a bigint column (well inside Number's exact range). */
export const epochMs = (value: number | string): number => Number(value);

/** A minor-unit column as a JS number: the values of one row fit in 32 bits (a $21 million fill-up is not a row). */
const minor = (value: string, digits: number): number => Number(toMinorUnits(value, digits));

export function toRow(customerId: string, t: Transaction, syncedAtMs: number): Insertable<MirrorTransactionTable> {
  return {
    customer_id: customerId,
    id: t.id,
    reference: t.reference,
    at_ms: Date.parse(t.at),
    local_offset_min: t.localOffsetMinutes,
    status: t.status,
    product: t.product,
    gallons_milli: minor(t.gallons, 3),
    price_milli: minor(t.pricePerGallon, 3),
    amount_cents: minor(t.amount, 2),
    station_id: t.station.id,
    station_name: t.station.name,
    station_loc_num: t.station.locNum,
    station_city: t.station.city,
    station_state: t.station.state,
    driver_id: t.driver.id,
    driver_name: t.driver.name,
    truck_id: t.driver.truckId,
    card_last4: t.card.last4,
    def_gallons_milli: t.def ? minor(t.def.gallons, 3) : null,
    def_amount_cents: t.def ? minor(t.def.amount, 2) : null,
    def_category: t.def ? t.def.category : null,
    synced_at_ms: syncedAtMs,
  };
}

export function fromRow(row: MirrorRow): Transaction {
  return {
    id: row.id,
    reference: row.reference,
    at: new Date(epochMs(row.at_ms)).toISOString(),
    localOffsetMinutes: row.local_offset_min,
    status: row.status as TransactionStatus,
    product: row.product,
    gallons: fromMinorUnits(exactInteger(row.gallons_milli), 3),
    pricePerGallon: fromMinorUnits(exactInteger(row.price_milli), 3),
    amount: fromMinorUnits(exactInteger(row.amount_cents), 2),
    station: {
      id: row.station_id,
      name: row.station_name,
      locNum: row.station_loc_num,
      city: row.station_city,
      state: row.station_state,
    },
    driver: { id: row.driver_id, name: row.driver_name, truckId: row.truck_id },
    card: { last4: row.card_last4 },
    def:
      row.def_category === null
        ? null
        : {
            gallons: fromMinorUnits(exactInteger(row.def_gallons_milli), 3),
            amount: fromMinorUnits(exactInteger(row.def_amount_cents), 2),
            category: row.def_category,
          },
  };
}
