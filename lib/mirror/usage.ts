import { sql } from "kysely";

import { epochMs, exactInteger } from "./rows";
import type { MirrorStore } from "./store";

/**
 * What an operator (and the retention rule) needs to know of each customer's mirror. "Last used" is the last write
 * of the customer's sync state: a sync runs only while a session of that customer is signed in (at sign-in, and a
 * head sync at most every 30 s while its pages ask for fresh data), so it is within 30 s of the last use. A customer
 * whose state row is missing (an interrupted first write) falls back to the newest `synced_at_ms` of its rows.
 */
export interface CustomerUsage {
  customerId: string;
  rows: number;
  coverageFromMs: number | null;
  newestAtMs: number | null;
  lastHeadSyncMs: number | null;
  lastUsedMs: number | null;
  backfillComplete: boolean;
}

const nullableMs = (value: number | string | null): number | null => (value === null ? null : epochMs(value));

/** Every customer the store holds anything of, by id. */
export async function customerUsage(store: MirrorStore): Promise<CustomerUsage[]> {
  const counts = await store.db
    .selectFrom("mirror_transactions")
    .select((eb) => ["customer_id", eb.fn.countAll().as("n"), eb.fn.max("synced_at_ms").as("synced")])
    .groupBy("customer_id")
    .execute();
  const states = await store.db.selectFrom("mirror_sync_state").selectAll().execute();
  const byId = new Map<string, CustomerUsage>();
  for (const s of states) {
    byId.set(s.customer_id, {
      customerId: s.customer_id,
      rows: 0,
      coverageFromMs: nullableMs(s.coverage_from_ms),
      newestAtMs: nullableMs(s.newest_at_ms),
      lastHeadSyncMs: nullableMs(s.last_head_sync_ms),
      lastUsedMs: epochMs(s.updated_at_ms),
      backfillComplete: s.backfill_complete === 1,
    });
  }
  for (const c of counts) {
    const rows = Number(exactInteger(c.n));
    // MAX over a group is never NULL here (synced_at_ms is NOT NULL), but Kysely's types do not say so.
    const synced = c.synced as number | string | null;
    const known = byId.get(c.customer_id);
    if (known) known.rows = rows;
    else
      byId.set(c.customer_id, {
        customerId: c.customer_id,
        rows,
        coverageFromMs: null,
        newestAtMs: null,
        lastHeadSyncMs: null,
        lastUsedMs: nullableMs(synced),
        backfillComplete: false,
      });
  }
  return [...byId.values()].sort((a, b) => a.customerId.localeCompare(b.customerId));
}

/**
 * Deletes every customer's mirror last used before `cutoffMs`, except those `keep` names (customers signed in now);
 * returns the ids deleted.
 */
export async function purgeUnused(
  store: MirrorStore,
  cutoffMs: number,
  keep: (customerId: string) => boolean = () => false,
): Promise<string[]> {
  const purged: string[] = [];
  for (const usage of await customerUsage(store)) {
    if (keep(usage.customerId) || (usage.lastUsedMs !== null && usage.lastUsedMs >= cutoffMs)) continue;
    await store.purge(usage.customerId);
    purged.push(usage.customerId);
  }
  return purged;
}

/** Bytes the store takes: the SQLite file's pages, or the PostgreSQL tables with their indexes. */
export async function storeBytes(store: MirrorStore): Promise<number> {
  if (store.dialect === "sqlite") {
    const { rows } = await sql<{
      bytes: number;
    }>`SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`.execute(store.db);
    return rows[0]?.bytes ?? 0;
  }
  const { rows } = await sql<{ bytes: string }>`SELECT (pg_total_relation_size('mirror_transactions')
    + pg_total_relation_size('mirror_sync_state'))::text AS bytes`.execute(store.db);
  return Number(rows[0]?.bytes ?? 0);
}
