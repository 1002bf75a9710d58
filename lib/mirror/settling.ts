import { sql } from "kysely";

import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";
import type { LocalDateRange } from "@/lib/model/insights";
import { NOT_SETTLING, type Settling, statusesOf } from "@/lib/model/metrics";

import { KEY_COLUMN } from "./drilldowns-figures";
import { localDayWhere } from "./local-dates";
import { exactInteger } from "./rows";
import type { MirrorStore } from "./store";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The purchase's local day number, integer arithmetic only: literals, not bound parameters (better-sqlite3 binds a JS
 * number as a real, and the division would then not floor — local-dates' LOCAL_MS is such a real).
 */
const LOCAL_DAY = sql<number>`(at_ms + coalesce(local_offset_min, 0) * ${sql.lit(MINUTE_MS)}) / ${sql.lit(DAY_MS)}`;

/**
 * How much of a range of purchase-local dates is still settling: its pending purchases and the local dates holding
 * them (lib/model/metrics `Settling`). One aggregation over the range's rows (the customer-and-time index); a
 * comparison with the period before says "3 days still settling" instead of a change while this is not zero.
 */
export async function settlingOf(
  store: MirrorStore,
  customerId: string,
  range: LocalDateRange | null,
  only?: { dimension: DrilldownDimension; key: string },
): Promise<Settling> {
  if (range === null) return NOT_SETTLING;
  const row = await store.db
    .selectFrom("mirror_transactions")
    .select([sql<number | string>`count(*)`.as("n"), sql<number | string>`count(distinct ${LOCAL_DAY})`.as("d")])
    .where((eb) =>
      eb.and([
        eb("customer_id", "=", customerId),
        localDayWhere(eb, range),
        eb("status", "in", [...statusesOf("pending")]),
        ...(only === undefined ? [] : [eb(KEY_COLUMN[only.dimension], "=", only.key)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return { purchases: Number(exactInteger(row.n)), days: Number(exactInteger(row.d)) };
}

/** The same per key of a dimension (only keys with pending purchases are in the map): a list's change cells. */
export async function settlingByKey(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  range: LocalDateRange | null,
): Promise<Map<string, Settling>> {
  if (range === null) return new Map();
  const column = KEY_COLUMN[dimension];
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select([
      sql<string | null>`${sql.ref(column)}`.as("k"),
      sql<number | string>`count(*)`.as("n"),
      sql<number | string>`count(distinct ${LOCAL_DAY})`.as("d"),
    ])
    .where((eb) =>
      eb.and([
        eb("customer_id", "=", customerId),
        localDayWhere(eb, range),
        eb("status", "in", [...statusesOf("pending")]),
      ]),
    )
    .groupBy(sql.ref(column))
    .execute();
  return new Map(
    rows.flatMap((r) =>
      r.k === null ? [] : [[r.k, { purchases: Number(exactInteger(r.n)), days: Number(exactInteger(r.d)) }] as const],
    ),
  );
}
