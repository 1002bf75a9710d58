import type { Transaction as KyselyTransaction } from "kysely";

import type { Station } from "@/lib/model";

import { markFillsBetween, MAX_PRICE_WINDOW_MS } from "./comparisons";
import { epochMs } from "./rows";
import type { MirrorDatabase } from "./schema";
import type { PriceRecord } from "./types";

type Trx = KyselyTransaction<MirrorDatabase>;

export type StationBefore = { lat: number; lng: number; state: string; lastSeenMs: number };

export async function stationsBefore(db: Trx, customerId: string): Promise<Map<string, StationBefore>> {
  const rows = await db
    .selectFrom("mirror_stations")
    .select(["id", "lat", "lng", "state", "last_seen_ms"])
    .where("customer_id", "=", customerId)
    .execute();
  return new Map(
    rows.map((r) => [r.id, { lat: r.lat, lng: r.lng, state: r.state, lastSeenMs: epochMs(r.last_seen_ms) }]),
  );
}

/**
 * Marks the stored savings comparisons (./comparisons.ts) this walk may change: every fill when a station is new,
 * moved or in another state (neighbours, state medians); else the fills within the largest price window of the
 * observed spans the walk changed — a station's latest span now ends at this walk, and a new price record ends the
 * previous record's span at the walk that first saw it.
 */
export async function markReachedFills(
  trx: Trx,
  customerId: string,
  listed: readonly Station[],
  before: ReadonlyMap<string, StationBefore>,
  latest: ReadonlyMap<string, PriceRecord>,
  added: readonly { station_id: string; updated_ms: number }[],
  seenMs: number,
): Promise<void> {
  const moved = listed.some((s) => {
    const b = before.get(s.id);
    if (b === undefined) return true;
    return b.lat !== s.lat || b.lng !== s.lng || b.state !== s.state;
  });
  if (moved) return markFillsBetween(trx, customerId);
  let lo = Infinity;
  let hi = -Infinity;
  const reach = (...ms: number[]) => {
    lo = Math.min(lo, ...ms);
    hi = Math.max(hi, ...ms);
  };
  for (const s of listed) {
    const b = before.get(s.id);
    if (b !== undefined && b.lastSeenMs !== seenMs) reach(b.lastSeenMs, seenMs);
  }
  for (const a of added) {
    const last = latest.get(a.station_id);
    reach(a.updated_ms, seenMs, ...(last === undefined ? [] : [last.updatedMs, last.seenMs ?? last.updatedMs]));
  }
  if (lo > hi) return;
  await markFillsBetween(trx, customerId, lo - MAX_PRICE_WINDOW_MS - 1, hi + MAX_PRICE_WINDOW_MS + 1);
}
