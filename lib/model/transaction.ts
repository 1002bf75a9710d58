import { z } from "zod";

import { Money, UnitPrice, Volume } from "./decimal";
import { MAX_SEARCH_LENGTH } from "./limits";

export const TRANSACTION_STATUSES = ["completed", "pending", "failed"] as const;
export const TransactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/** Fields the upstream sent that the model has no place for, kept for detail views (shown generically). */
export const Extra = z.record(z.string(), z.unknown());
export type Extra = z.infer<typeof Extra>;

export const Transaction = z.object({
  id: z.string(),
  /** The provider's external transaction reference (`transaction_id`). */
  reference: z.string(),
  /** ISO 8601 in UTC with Z. */
  at: z.iso.datetime(),
  /** The UTC offset the upstream reported with the time (the station's), when it reported one other than Z. */
  localOffsetMinutes: z.number().int().nullable(),
  status: TransactionStatus,
  product: z.string(),
  gallons: Volume,
  pricePerGallon: UnitPrice,
  amount: Money,
  station: z.object({ id: z.string(), name: z.string(), locNum: z.string(), city: z.string(), state: z.string() }),
  driver: z.object({ id: z.string(), name: z.string(), truckId: z.string().nullable() }),
  card: z.object({ last4: z.string() }),
  /** The diesel exhaust fluid part; null when there was none. */
  def: z.object({ gallons: Volume, amount: Money, category: z.string() }).nullable(),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionDetail = Transaction.extend({
  station: Transaction.shape.station.extend({ address: z.string().nullable(), zip: z.string().nullable() }),
  driver: Transaction.shape.driver.extend({ email: z.string().nullable() }),
  card: Transaction.shape.card.extend({ type: z.string().nullable() }),
  source: z.string().nullable(),
  createdAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime().nullable(),
  /** Carrier-side audit fields (the alternative description), as sent. */
  audit: Extra.nullable(),
  extra: Extra,
});
export type TransactionDetail = z.infer<typeof TransactionDetail>;

/**
 * What a transaction list can be filtered by, both ends inclusive: UTC calendar days (YYYY-MM-DD), or exact instants
 * (ISO 8601 in UTC, e.g. a day of another time zone), which the client sends as datetimes where the upstream takes
 * them and as the covering UTC days where it does not.
 */
export const TransactionFilter = z.object({
  from: z.union([z.iso.date(), z.iso.datetime()]).optional(),
  to: z.union([z.iso.date(), z.iso.datetime()]).optional(),
  status: TransactionStatus.optional(),
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
});
export type TransactionFilter = z.infer<typeof TransactionFilter>;

/**
 * Which instants a dated list or export covers (`dateFilter` of `GET /api/transactions`): the days asked for in
 * `timeZone`, from the first millisecond of `from` to the last of `to`, ISO 8601 in UTC (exact on both upstream
 * shapes, see lib/bff/transactions/zoned-transactions).
 */
export interface DateFilterCoverage {
  timeZone: string;
  from: string | null;
  to: string | null;
}
