/** A price stamp older than this is stale: drawn hollow on the map and flagged in the lists. */
export const STALE_AFTER_MS = 2 * 86_400_000;

/** Whether a station's price is stale (or missing) at `now` (epoch ms). */
export function isStale(priceUpdatedAt: string | null, now: number): boolean {
  if (priceUpdatedAt === null) return true;
  return now - Date.parse(priceUpdatedAt) > STALE_AFTER_MS;
}
