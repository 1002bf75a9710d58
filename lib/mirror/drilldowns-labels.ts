import { sql } from "kysely";

import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";

import { KEY_COLUMN, type LabelColumns, labelOf } from "./drilldowns-figures";
import type { MirrorStore } from "./store";

/** What the drill-downs call a key (driver, truck, card, station): read from its newest row in the mirror. */

/**
 * What a key is called, from its newest row (any status, any time): one lookup through the index that starts with the
 * customer and the key and ends with the time; null when the customer's mirror has no row of it.
 */
export async function latestLabel(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  key: string,
): Promise<{ name: string; detail: string | null } | null> {
  const row = await store.db
    .selectFrom("mirror_transactions")
    .select(["driver_name", "truck_id", "station_name", "station_city", "station_state"])
    .where("customer_id", "=", customerId)
    .where(KEY_COLUMN[dimension], "=", key)
    .orderBy("at_ms", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? labelOf(dimension, key, row) : null;
}

/** Keys per statement of latestLabels: two parameters each, well under SQLite's and PostgreSQL's limits. */
const LABEL_CHUNK = 500;

/**
 * What each key is called, from its newest row: one statement for all the keys (per 500), each key's newest row found
 * by one correlated lookup (limit 1 through the index of the key and the time) joined to its row, so a page of many
 * keys costs one round trip and never reads a key's whole history. One subquery for all the keys, not one per key:
 * PostgreSQL planned 200 scalar subqueries in about 100 ms, longer than it ran them.
 */
export async function latestLabels(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  keys: readonly string[],
): Promise<Map<string, { name: string; detail: string | null }>> {
  const column = sql.ref(`x.${KEY_COLUMN[dimension]}`);
  const labels = new Map<string, { name: string; detail: string | null }>();
  for (let i = 0; i < keys.length; i += LABEL_CHUNK) {
    // cast(): PostgreSQL types a bare parameter in VALUES as text only when told.
    const values = keys.slice(i, i + LABEL_CHUNK).map((key) => sql`(cast(${key} as text))`);
    const { rows } = await sql<LabelColumns & { k: string }>`with keys (k) as (values ${sql.join(values)})
      select keys.k as k, t.driver_name, t.truck_id, t.station_name, t.station_city, t.station_state
      from keys join mirror_transactions t on t.customer_id = ${customerId} and t.id = (
        select x.id from mirror_transactions x where x.customer_id = ${customerId} and ${column} = keys.k
        order by x.at_ms desc limit 1)`.execute(store.db);
    for (const r of rows) if (!labels.has(r.k)) labels.set(r.k, labelOf(dimension, r.k, r));
  }
  return labels;
}
