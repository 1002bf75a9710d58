import type { ColumnType } from "kysely";

import type { MirrorStationPriceTable, MirrorStationTable } from "./catalog-schema";

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

interface MirrorSyncStateTable {
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

/**
 * Rollups (./rollups.ts): sums of `mirror_transactions` kept exact in the same transaction as every write, so a period
 * is read from a few thousand rollup rows instead of hundreds of thousands of transactions. "Spend" is every status
 * but failed (what the summary and the state × product grouping sum).
 */
interface MirrorBucketTotalsTable {
  customer_id: string;
  /** The quarter hour: floor(at_ms / 900 000). */
  bucket: Int8;
  spend_n: number;
  spend_gallons_milli: Int8;
  spend_amount_cents: Int8;
  completed: number;
  pending: number;
  failed: number;
}

interface MirrorGroupTotalsTable {
  customer_id: string;
  /** driver (key driver_id) · station (station_id) · product · state_product (key state, key2 product). */
  dimension: string;
  /** The period's length in UTC days (1 or 16); `period` = floor(at_ms / (span_days × 86 400 000)). */
  span_days: number;
  period: Int8;
  key: string;
  /** The second key of a two-column grouping; '' otherwise. */
  key2: string;
  n: number;
  gallons_milli: Int8;
  amount_cents: Int8;
}

/** The local-day rollup (./local-rollups.ts): sums per customer × purchase-local date × dimension × key × product × status. */
interface MirrorLocalDayTotalsTable {
  customer_id: string;
  /** driver · truck ('' = none) · card (last 4) · station · state (as the row has it). */
  dimension: string;
  /** The purchase's local date as days since 1970-01-01. */
  local_day: number;
  key: string;
  /** The raw product name (fuel classes are decided in code). */
  product: string;
  status: string;
  n: number;
  gallons_milli: Int8;
  amount_cents: Int8;
  def_gallons_milli: Int8;
  def_amount_cents: Int8;
  /** The newest instant of these purchases (epoch ms): "last purchase". */
  last_at_ms: Int8;
}

/** The local-day rollup's blocks (./local-blocks.ts): the same sums per aligned block of 4, 16 or 128 local days. */
interface MirrorLocalBlockTotalsTable {
  customer_id: string;
  dimension: string;
  /** The block's length in local days: 4, 16 or 128. */
  span_days: number;
  /** local_day / span_days (rounded down): the block's first day is block × span_days. */
  block: number;
  key: string;
  product: string;
  status: string;
  n: number;
  gallons_milli: Int8;
  amount_cents: Int8;
  def_gallons_milli: Int8;
  def_amount_cents: Int8;
  /** The newest purchase with its local date, packed (./local-blocks.ts packLast). */
  last_packed: Int8;
}

/** A key's proven transactions scope (./key-scopes.ts, migration 0005). */
interface MirrorKeyScopeTable {
  customer_id: string;
  /** credentialKey of the pair: a one-way hash. */
  key_hash: string;
  /** 1: the upstream answered the key's own transactions call; 0: it refused the key the scope. */
  transactions: number;
  checked_ms: Int8;
}

/** A completed fill's stored savings comparison (./comparisons.ts, migration 0006); amounts in micro-dollars. */
interface MirrorFillComparisonTable {
  customer_id: string;
  tx_id: string;
  /** > 0: to be computed again (a counter: a comparison clears only the mark it read). */
  pending: number;
  at_ms: Int8;
  /** The purchase-local date it is counted on in mirror_comparison_days ('' before its first computation). */
  local_date: string;
  driver_id: string;
  station_id: string;
  /** lib/insights/savings FILL_KIND; -1 before its first computation. */
  kind: number;
  gallons_milli: Int8;
  price_milli: number;
  /** 1: its station's own price was observed, 0: not, null: not asked (another product, an unknown station). */
  own_checked: number | null;
  /** ./comparisons FLAG bits. */
  flags: number;
  above_own_micro: Int8;
  saved_micro: Int8;
  above_median_micro: Int8;
  cheaper_id: string | null;
  cheaper_price_milli: number | null;
  cheaper_miles: number | null;
  cheaper_apart_ms: Int8 | null;
}

/** The stored comparisons' sums per customer × purchase-local date × kind. */
interface MirrorComparisonDayTable {
  customer_id: string;
  local_date: string;
  kind: number;
  n: number;
  gallons_milli: Int8;
  own_checked: number;
  own_above: number;
  above_own_micro: Int8;
  with_saving: number;
  saved_micro: Int8;
  with_above_median: number;
  above_median_micro: Int8;
}

/** The parameters the customer's stored comparisons were made with. */
interface MirrorComparisonParamsTable {
  customer_id: string;
  radius_miles: number;
  window_ms: Int8;
}

export interface MirrorDatabase {
  mirror_fill_comparisons: MirrorFillComparisonTable;
  mirror_comparison_days: MirrorComparisonDayTable;
  mirror_comparison_params: MirrorComparisonParamsTable;
  mirror_key_scopes: MirrorKeyScopeTable;
  mirror_local_day_totals: MirrorLocalDayTotalsTable;
  mirror_local_block_totals: MirrorLocalBlockTotalsTable;
  mirror_transactions: MirrorTransactionTable;
  mirror_sync_state: MirrorSyncStateTable;
  mirror_bucket_totals: MirrorBucketTotalsTable;
  mirror_group_totals: MirrorGroupTotalsTable;
  mirror_stations: MirrorStationTable;
  mirror_station_prices: MirrorStationPriceTable;
}
