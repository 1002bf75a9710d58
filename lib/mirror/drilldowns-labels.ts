import { sql } from "kysely";

import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";

import { KEY_COLUMN, labelOf } from "./drilldowns-figures";
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
 * by its own indexed lookup inside it (a subquery per key with limit 1), so a page of many keys costs one round trip,
 * not one query per key, and never reads a key's whole history.
 */
export async function latestLabels(
  store: MirrorStore,
  customerId: string,
  dimension: DrilldownDimension,
  keys: readonly string[],
): Promise<Map<string, { name: string; detail: string | null }>> {
  const column = KEY_COLUMN[dimension];
  const labels = new Map<string, { name: string; detail: string | null }>();
  for (let i = 0; i < keys.length; i += LABEL_CHUNK) {
    const chunk = keys.slice(i, i + LABEL_CHUNK);
    const rows = await store.db
      .selectFrom("mirror_transactions")
      .select([
        sql<string>`${sql.ref(column)}`.as("k"),
        "driver_name",
        "truck_id",
        "station_name",
        "station_city",
        "station_state",
      ])
      .where("customer_id", "=", customerId)
      .where((eb) =>
        eb(
          "id",
          "in",
          chunk.map((key) =>
            eb
              .selectFrom("mirror_transactions")
              .select("id")
              .where("customer_id", "=", customerId)
              .where(column, "=", key)
              .orderBy("at_ms", "desc")
              .limit(1),
          ),
        ),
      )
      .execute();
    for (const r of rows) if (!labels.has(r.k)) labels.set(r.k, labelOf(dimension, r.k, r));
  }
  return labels;
}
