import { sql } from "kysely";

import { statusesOf } from "@/lib/model/metrics";

import { whereOf } from "./filter";
import { BUCKET_MS, type Dimension, SPANS } from "./rollups";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";
import { DAY_MS } from "./sync-days";
import type { Eb, InstantRange } from "./types";

/**
 * Sums over a range of instants, from the rollups where whole periods fit and from the rows for the edges — or, with
 * `source: "rows"`, from the rows alone (what the property test compares against). Both give the same numbers.
 */

export type SumSource = "rollups" | "rows";

type SqlInteger = number | string | bigint;

interface GroupSum {
  key: string;
  key2: string;
  n: SqlInteger;
  g: SqlInteger | null;
  a: SqlInteger | null;
}

export interface BucketSum {
  bucket: SqlInteger;
  spendN: SqlInteger;
  g: SqlInteger | null;
  a: SqlInteger | null;
  completed: SqlInteger;
  pending: SqlInteger;
  failed: SqlInteger;
}

interface Range {
  fromMs: number;
  toMs: number;
}

interface PeriodRange {
  span: number;
  from: number;
  to: number;
}

const nonEmpty = (r: Range) => r.fromMs < r.toMs;

/** Whole periods of the largest span that fit in days [d0, d1), then finer ones at both ends, down to days. */
function planDays(d0: number, d1: number, spans: readonly number[]): PeriodRange[] {
  if (d0 >= d1) return [];
  const [span = 1, ...finer] = spans;
  if (span === 1) return [{ span: 1, from: d0, to: d1 }];
  const b0 = Math.ceil(d0 / span);
  const b1 = Math.floor(d1 / span);
  if (b0 >= b1) return planDays(d0, d1, finer);
  return [...planDays(d0, b0 * span, finer), { span, from: b0, to: b1 }, ...planDays(b1 * span, d1, finer)];
}

/** Splits [fromMs, toMs) into whole periods (rollups, ./rollups.ts SPANS) and the partial days at both ends (rows). */
function planGroups(range: Range): { rows: Range[]; periods: PeriodRange[] } {
  const d0 = Math.ceil(range.fromMs / DAY_MS);
  const d1 = Math.floor(range.toMs / DAY_MS);
  if (d0 >= d1) return { rows: [range].filter(nonEmpty), periods: [] };
  const rows = [
    { fromMs: range.fromMs, toMs: d0 * DAY_MS },
    { fromMs: d1 * DAY_MS, toMs: range.toMs },
  ].filter(nonEmpty);
  return { rows, periods: planDays(d0, d1, [...SPANS].reverse()) };
}

/** Splits [fromMs, toMs) into whole quarter hours (rollups) and the partial ones at both ends (rows). */
export function planBuckets(range: Range): { rows: Range[]; buckets: { from: number; to: number } | null } {
  const b0 = Math.ceil(range.fromMs / BUCKET_MS);
  const b1 = Math.floor(range.toMs / BUCKET_MS);
  if (b0 >= b1) return { rows: [range].filter(nonEmpty), buckets: null };
  const rows = [
    { fromMs: range.fromMs, toMs: b0 * BUCKET_MS },
    { fromMs: b1 * BUCKET_MS, toMs: range.toMs },
  ].filter(nonEmpty);
  return { rows, buckets: { from: b0, to: b1 } };
}

const spendOf = (customerId: string, range: InstantRange) => (eb: Eb) =>
  eb.and([whereOf(eb, customerId, range), eb("status", "in", [...statusesOf("charged")])]);

// Grouped by expressions rather than bare columns: SQLite would otherwise walk the driver or station index (sorted by
// the group) and read every row from the table; the time index covers these columns and the range.
const KEY_EXPRESSIONS: Readonly<Record<Dimension, readonly [string, string]>> = {
  driver: ["(driver_id || '')", "''"],
  station: ["(station_id || '')", "''"],
  product: ["(product || '')", "''"],
  state_product: ["(station_state || '')", "(product || '')"],
};

function groupRows(
  store: MirrorStore,
  customerId: string,
  dimension: Dimension,
  range: InstantRange,
): Promise<GroupSum[]> {
  const [key, key2] = KEY_EXPRESSIONS[dimension];
  const groupBy = key2 === "''" ? sql.raw(key) : sql.raw(`${key}, ${key2}`);
  return store.db
    .selectFrom("mirror_transactions")
    .select((eb) => [
      sql<string>`${sql.raw(key)}`.as("key"),
      sql<string>`${sql.raw(key2)}`.as("key2"),
      eb.fn.countAll<SqlInteger>().as("n"),
      eb.fn.sum<SqlInteger>("gallons_milli").as("g"),
      eb.fn.sum<SqlInteger>("amount_cents").as("a"),
    ])
    .where(spendOf(customerId, range))
    .groupBy(groupBy)
    .execute();
}

function groupRollups(
  store: MirrorStore,
  customerId: string,
  dimension: Dimension,
  p: PeriodRange,
): Promise<GroupSum[]> {
  return store.db
    .selectFrom("mirror_group_totals")
    .select((eb) => [
      "key",
      "key2",
      eb.fn.sum<SqlInteger>("n").as("n"),
      eb.fn.sum<SqlInteger>("gallons_milli").as("g"),
      eb.fn.sum<SqlInteger>("amount_cents").as("a"),
    ])
    .where("customer_id", "=", customerId)
    .where("dimension", "=", dimension)
    .where("span_days", "=", p.span)
    .where("period", ">=", p.from)
    .where("period", "<", p.to)
    .groupBy(["key", "key2"])
    .execute();
}

export interface GroupTotal {
  key: string;
  key2: string;
  transactions: number;
  gallons: bigint;
  amount: bigint;
}

/** Spend (every status but failed) per key of a dimension over the range (an open end reads the rows). */
export async function groupSums(
  store: MirrorStore,
  customerId: string,
  dimension: Dimension,
  range: InstantRange,
  source: SumSource,
): Promise<GroupTotal[]> {
  const { fromMs, toMs } = range;
  if (source === "rows" || fromMs === undefined || toMs === undefined)
    return mergeGroups(await groupRows(store, customerId, dimension, range));
  const plan = planGroups({ fromMs, toMs });
  const parts = await Promise.all([
    ...plan.rows.map((r) => groupRows(store, customerId, dimension, r)),
    ...plan.periods.map((p) => groupRollups(store, customerId, dimension, p)),
  ]);
  return mergeGroups(parts.flat());
}

/** The parts' sums added up per key, exactly. */
function mergeGroups(parts: readonly GroupSum[]): GroupTotal[] {
  const merged = new Map<string, GroupTotal>();
  for (const r of parts) {
    const id = JSON.stringify([r.key, r.key2]);
    let m = merged.get(id);
    if (!m) merged.set(id, (m = { key: r.key, key2: r.key2, transactions: 0, gallons: 0n, amount: 0n }));
    m.transactions += Number(exactInteger(r.n));
    m.gallons += exactInteger(r.g);
    m.amount += exactInteger(r.a);
  }
  return [...merged.values()];
}

export function bucketRows(store: MirrorStore, customerId: string, range: Range): Promise<BucketSum[]> {
  // A literal, not a parameter: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
  const bucket = sql<SqlInteger>`(at_ms / ${sql.lit(BUCKET_MS)})`;
  const spend = (column: string) =>
    sql<SqlInteger>`sum(case when status <> 'failed' then ${sql.raw(column)} else 0 end)`;
  const count = (status: string) => sql<SqlInteger>`sum(case when status = ${sql.lit(status)} then 1 else 0 end)`;
  return store.db
    .selectFrom("mirror_transactions")
    .select([
      bucket.as("bucket"),
      spend("1").as("spendN"),
      spend("gallons_milli").as("g"),
      spend("amount_cents").as("a"),
      count("completed").as("completed"),
      count("pending").as("pending"),
      count("failed").as("failed"),
    ])
    .where((eb) => whereOf(eb, customerId, range))
    .groupBy(bucket)
    .execute();
}
