import type { ColumnType } from "kysely";

/**
 * The station catalog in the mirror (migration 0003, ./catalog.ts): each customer's stations as its catalog walks saw
 * them, and per station its price each time it changed. Prices are the customer's own (the catalog's `price` is what
 * that customer pays), so both tables are keyed by customer like every other mirror table.
 */

/** A bigint column: written as a number, read as whatever the driver gives (pg: string). */
type Int8 = ColumnType<number | string, number, number>;

export interface MirrorStationTable {
  customer_id: string;
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  address: string;
  city: string;
  state: string;
  /** Degrees, as the upstream sent them (coordinates are not money: a double is exact enough). */
  lat: number;
  lng: number;
  first_seen_ms: Int8;
  /** The walk that last listed the station: stations of the latest walk are "today's catalog". */
  last_seen_ms: Int8;
}

export interface MirrorStationPriceTable {
  customer_id: string;
  station_id: string;
  /**
   * Since when the price holds (epoch ms): the upstream's `price_updated_at`, or the walk's time when it sent none or a
   * time not after the previous record's (a changed price cannot have started before the price it replaced).
   */
  updated_ms: Int8;
  /** Thousandths of a dollar per gallon. */
  price_milli: number;
  /** The walk that saw this price first (epoch ms). */
  seen_ms: Int8;
}
