import type { ColumnType } from "kysely";

/**
 * The mirror's tables, as Kysely sees them. One schema for both stores; where the drivers differ in what they hand
 * back (`pg` reads `bigint` and sums as strings, better-sqlite3 as numbers), the read type says `number | string` and
 * `lib/mirror/rows.ts` converts exactly (BigInt for sums, Number only for epoch milliseconds).
 *
 * Every key starts with `customer_id`: two customers in one store share no row, and every query names its customer.
 */

/** A bigint column: written as a number, read as whatever the driver gives. */
type Int8 = ColumnType<number | string, number, number>;

export interface MirrorTransactionTable {
  customer_id: string;
  id: string;
  reference: string;
  /** The instant, UTC epoch milliseconds. */
  at_ms: Int8;
  /** The UTC offset the upstream reported with the time, in minutes; null when it said Z. */
  local_offset_min: number | null;
  status: string;
  product: string;
  /** Thousandths of a gallon. */
  gallons_milli: number;
  /** Thousandths of a dollar per gallon. */
  price_milli: number;
  /** Cents. */
  amount_cents: number;
  station_id: string;
  station_name: string;
  station_loc_num: string;
  station_city: string;
  station_state: string;
  driver_id: string;
  driver_name: string;
  truck_id: string | null;
  card_last4: string;
  def_gallons_milli: number | null;
  def_amount_cents: number | null;
  def_category: string | null;
  /** When the sync last wrote this row (epoch ms). */
  synced_at_ms: Int8;
}

export interface MirrorSyncStateTable {
  customer_id: string;
  /** Newest transaction instant the mirror holds (epoch ms); null while empty. */
  newest_at_ms: ColumnType<number | string | null, number | null, number | null>;
  /**
   * The backfill's place: the UTC day (YYYY-MM-DD) whose and older rows it walks (`to=` that day), the next page, and
   * the total of that list when the walk began. Null before the first backfill page and after it finished.
   */
  backfill_to_day: string | null;
  backfill_next_page: number | null;
  backfill_expected: number | null;
  backfill_done_rows: number;
  /** 1 once the backfill reached the upstream's oldest row: the mirror covers the whole history. */
  backfill_complete: number;
  /** The oldest instant the mirror holds without a gap up to its newest (epoch ms); null while empty. */
  coverage_from_ms: ColumnType<number | string | null, number | null, number | null>;
  last_head_sync_ms: ColumnType<number | string | null, number | null, number | null>;
  last_verification_ms: ColumnType<number | string | null, number | null, number | null>;
  /** What the last verification found and fixed, as JSON. */
  last_verification: string | null;
  /** Why the last run stopped, when it did not finish (e.g. "unauthenticated"); null after a clean run. */
  last_error: string | null;
  updated_at_ms: Int8;
}

export interface MirrorDatabase {
  mirror_transactions: MirrorTransactionTable;
  mirror_sync_state: MirrorSyncStateTable;
}
