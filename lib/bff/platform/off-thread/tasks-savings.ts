import type { SavingsFilter } from "@/lib/insights/savings-query";
import { storedSavingsFor } from "@/lib/insights/savings-stored-read";
import { catalogFacts, type MirrorStore } from "@/lib/mirror";
import type { LocalDateRange } from "@/lib/model";

export interface SavingsArgs {
  customerId: string;
  current: LocalDateRange | null;
  previous: LocalDateRange | null;
  scope: SavingsFilter;
}

/**
 * GET /api/savings' reading, in one task: both periods from the stored comparisons (lib/insights/savings-stored-read;
 * the operation brought them up to date on the writing connection first); null while no catalog walk is recorded.
 */
export async function savingsBoth(store: MirrorStore, a: SavingsArgs) {
  const catalog = await catalogFacts(store, a.customerId);
  if (catalog.lastWalkMs === null) return null;
  const shown = await storedSavingsFor(store, a.customerId, a.current, a.scope);
  const before = await storedSavingsFor(store, a.customerId, a.previous, a.scope, { top: false });
  return {
    shown,
    before,
    stations: catalog.stations,
    lastWalkMs: catalog.lastWalkMs,
    historyFromMs: catalog.historyFromMs,
  };
}
