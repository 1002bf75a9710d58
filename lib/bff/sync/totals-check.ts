import "server-only";

import type { Credentials, FleetApiClient } from "@/lib/fleet-api";
import { type MirrorStore, periodTotals } from "@/lib/mirror";

const THIRTY_DAYS_MS = 30 * 24 * 3_600_000;

export interface TotalsMismatch {
  upstream: { transactions: number; gallons: string; amount: string };
  mirror: { transactions: number; gallons: string; amount: string };
}

/**
 * Issue 15's second verification check: where the account shape carries totals_30d (the primary one), the upstream's
 * rolling 30-day figures must equal the mirror's over the same window (completed and pending, as periodTotals sums).
 * The count verification cannot see a changed amount or volume; this can. On a mismatch the stored last verification
 * is marked not matched (so GET /api/sync says ok:false) and the figures (no key material) are returned for the log.
 */
export interface TotalsCheck {
  store: MirrorStore;
  client: FleetApiClient;
  customerId: string;
  credentials: Credentials;
  nowMs: number;
  warn: (fields: Record<string, unknown>, message: string) => void;
}

export async function checkTotals30d(check: TotalsCheck): Promise<TotalsMismatch | null> {
  try {
    const mismatch = await compare(check);
    if (mismatch)
      check.warn({ customer: check.customerId, ...mismatch }, "mirror totals_30d differ from the upstream's");
    return mismatch;
  } catch (error) {
    // A key that may not read the account, or an upstream fault: no check this time; the sync itself stands.
    check.warn(
      { customer: check.customerId, code: (error as { code?: unknown }).code ?? "internal" },
      "mirror totals_30d check skipped",
    );
    return null;
  }
}

async function compare({ store, client, customerId, credentials, nowMs }: TotalsCheck): Promise<TotalsMismatch | null> {
  const upstream = (await client.getAccount(credentials)).totals30d;
  if (upstream?.source !== "upstream") return null;
  // The upstream's window is whole seconds, both ends included; periodTotals' end is exclusive.
  const toMs = Math.floor(nowMs / 1000) * 1000 + 1000;
  const sums = await periodTotals(store, customerId, { fromMs: toMs - 1000 - THIRTY_DAYS_MS, toMs });
  const mirror = { transactions: sums.transactions, gallons: sums.gallons, amount: sums.amount };
  const same =
    mirror.transactions === upstream.transactions &&
    Number(mirror.gallons) === Number(upstream.gallons) &&
    Number(mirror.amount) === Number(upstream.amount);
  if (same) return null;
  const mismatch = {
    upstream: { transactions: upstream.transactions, gallons: upstream.gallons, amount: upstream.amount },
    mirror,
  };
  const state = await store.getSyncState(customerId);
  const report =
    typeof state.lastVerification === "object" && state.lastVerification !== null ? state.lastVerification : {};
  await store.putSyncState({ ...state, lastVerification: { ...report, matched: false, totals30d: mismatch } }, nowMs);
  return mismatch;
}
