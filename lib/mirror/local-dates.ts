import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";

import type { LocalDateRange } from "@/lib/model/insights";

import type { MirrorDatabase } from "./schema";

// STUB of the insights contract (replaced by the lead's "Insights contract" commit on merge).

const DAY_MS = 86_400_000;
const WINDOW_MS = 15 * 3_600_000;

export const LOCAL_MS = sql<number>`(at_ms + coalesce(local_offset_min, 0) * 60000)`;

export function localDayWhere(
  eb: ExpressionBuilder<MirrorDatabase, "mirror_transactions">,
  range: LocalDateRange,
): Expression<SqlBool> {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to) + DAY_MS;
  return eb.and([
    eb("at_ms", ">=", from - WINDOW_MS),
    eb("at_ms", "<", to + WINDOW_MS),
    sql<SqlBool>`${LOCAL_MS} >= ${from}`,
    sql<SqlBool>`${LOCAL_MS} < ${to}`,
  ]);
}

export function localDateOf(atMs: number, offsetMin: number | null): string {
  return new Date(atMs + (offsetMin ?? 0) * 60_000).toISOString().slice(0, 10);
}
