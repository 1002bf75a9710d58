import { type SavingsFilter, savingsFor } from "@/lib/insights/savings-query";
import type { MirrorStore } from "@/lib/mirror";
import { readCatalog } from "@/lib/mirror/catalog";
import type { LocalDateRange } from "@/lib/model";

export interface SavingsArgs {
  customerId: string;
  current: LocalDateRange | null;
  previous: LocalDateRange | null;
  scope: SavingsFilter;
  params: { radiusMiles: number; windowMs: number };
}

/**
 * GET /api/savings' reading, in one task: the recorded catalog (every station and its observed prices) is read where
 * the comparison runs, so it never crosses threads; null while no catalog walk is recorded.
 */
export async function savingsBoth(store: MirrorStore, a: SavingsArgs) {
  const catalog = await readCatalog(store, a.customerId);
  if (catalog.lastWalkMs === null) return null;
  const shown = await savingsFor(store, a.customerId, a.current, a.scope, catalog, a.params);
  const before = await savingsFor(store, a.customerId, a.previous, a.scope, catalog, a.params);
  return {
    shown,
    before,
    stations: catalog.stations.length,
    lastWalkMs: catalog.lastWalkMs,
    historyFromMs: catalog.historyFromMs,
  };
}
