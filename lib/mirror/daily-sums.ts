import { sql } from "kysely";

import { bucketRows, type BucketSum, planBuckets, type SumSource } from "./rollup-reads";
import { BUCKET_MS } from "./rollups";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";

/**
 * Spend and counts per status per local day of a range. From the rollups, the quarter hours of each local day are
 * summed in SQL (one row per day comes back, not one per quarter hour: reading 35,000 bucket rows into JS cost more
 * than the sums); the partial quarter hours at the ends come from the rows. With `source: "rows"` every quarter hour
 * is grouped from the rows and mapped to its day here (what the property test compares against).
 */

export interface DaySum {
  spendN: number;
  gallons: bigint;
  amount: bigint;
  completed: number;
  pending: number;
  failed: number;
}

interface Range {
  fromMs: number;
  toMs: number;
}

/** Local day segments per statement: 3 parameters each stays far below both stores' bound-parameter limits. */
const SEGMENTS_PER_QUERY = 1000;

type Row = Omit<BucketSum, "bucket">;

function add(days: Map<number, DaySum>, day: number, r: Row): void {
  let d = days.get(day);
  if (!d) days.set(day, (d = { spendN: 0, gallons: 0n, amount: 0n, completed: 0, pending: 0, failed: 0 }));
  d.spendN += Number(exactInteger(r.spendN));
  d.gallons += exactInteger(r.g);
  d.amount += exactInteger(r.a);
  d.completed += Number(exactInteger(r.completed));
  d.pending += Number(exactInteger(r.pending));
  d.failed += Number(exactInteger(r.failed));
}

/** Runs of consecutive quarter hours in [from, to) that share a local day (a day can have two, e.g. DST at midnight). */
function segmentsOf(from: number, to: number, dayOf: (ms: number) => number) {
  const segments: { day: number; from: number; to: number }[] = [];
  let current: { day: number; from: number; to: number } | undefined;
  for (let b = from; b < to; b++) {
    const day = dayOf(b * BUCKET_MS);
    if (current?.day === day) current.to = b + 1;
    else segments.push((current = { day, from: b, to: b + 1 }));
  }
  return segments;
}

async function rollupDays(
  store: MirrorStore,
  customerId: string,
  buckets: { from: number; to: number },
  dayOf: (ms: number) => number,
  days: Map<number, DaySum>,
): Promise<void> {
  const segments = segmentsOf(buckets.from, buckets.to, dayOf);
  for (let i = 0; i < segments.length; i += SEGMENTS_PER_QUERY) {
    // cast(): PostgreSQL types a bare parameter in VALUES as text.
    const values = segments
      .slice(i, i + SEGMENTS_PER_QUERY)
      .map((s) => sql`(cast(${s.day} as bigint), cast(${s.from} as bigint), cast(${s.to} as bigint))`);
    const { rows } = await sql<Row & { day: number | string }>`with segs (day, lo, hi) as (values ${sql.join(values)})
      select segs.day as day, sum(t.spend_n) as "spendN", sum(t.spend_gallons_milli) as g,
        sum(t.spend_amount_cents) as a, sum(t.completed) as completed, sum(t.pending) as pending,
        sum(t.failed) as failed
      from segs join mirror_bucket_totals t
        on t.customer_id = ${customerId} and t.bucket >= segs.lo and t.bucket < segs.hi
      group by segs.day`.execute(store.db);
    for (const r of rows) add(days, Number(r.day), r);
  }
}

/** Sums per local day number (dayOf) of the range; days without rows are absent. */
export async function dailySums(
  store: MirrorStore,
  customerId: string,
  range: Range,
  dayOf: (ms: number) => number,
  source: SumSource,
): Promise<Map<number, DaySum>> {
  const days = new Map<number, DaySum>();
  const plan: ReturnType<typeof planBuckets> =
    source === "rows" ? { rows: [range], buckets: null } : planBuckets(range);
  for (const r of plan.rows)
    for (const b of await bucketRows(store, customerId, r)) add(days, dayOf(Number(b.bucket) * BUCKET_MS), b);
  if (plan.buckets) await rollupDays(store, customerId, plan.buckets, dayOf, days);
  return days;
}
