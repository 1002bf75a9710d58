import {
  type Page,
  type Transaction,
  TRANSACTION_STATUSES,
  type TransactionFilter,
  type TransactionStatus,
} from "@/lib/model";

import { countsByStatus } from "./queries";
import type { MirrorStore } from "./store";
import { addDays, DAY_MS, daysBetween, dayStartMs, utcDay } from "./sync-days";
import type { StatusCounts } from "./types";

/**
 * The sync's verification: the upstream's `total` for a filter is an exact count. Counts per status over the covered
 * days are compared with the mirror's; a mismatch is bisected down to single UTC days, and only those days are
 * fetched again (rows the upstream no longer returns are deleted). Repeated until a pass finds nothing (bounded
 * rounds).
 */

export interface VerificationReport {
  rounds: number;
  /** UTC days fetched again because their counts differed. */
  refetchedDays: string[];
  upserted: number;
  deleted: number;
  /** Upstream calls the verification made. */
  requests: number;
  /** True when the last round's counts all matched. */
  matched: boolean;
}

/** What a verification needs of the sync: its store, the customer, and its list call (bulk, reserve kept, abortable). */
export interface VerifyContext {
  store: MirrorStore;
  customerId: string;
  list: (query: TransactionFilter & { page: number; limit: number }) => Promise<Page<Transaction>>;
  pageSize: number;
  now: () => number;
  /** Asked before each write: throws when the sync's lease is no longer held (lib/mirror/lock.ts). */
  beforeWrite: () => Promise<void>;
}

interface Run extends VerifyContext {
  report: VerificationReport;
}

/**
 * Up to `rounds` passes over [firstDay, lastDay] (UTC days; firstDay null = open start, when the whole history is
 * mirrored), each fixing what differed; stops at the first pass that finds nothing (`matched`).
 */
export async function verifyCounts(
  context: VerifyContext,
  firstDay: string | null,
  lastDay: string,
  rounds: number,
): Promise<VerificationReport> {
  const report: VerificationReport = {
    rounds: 0,
    refetchedDays: [],
    upserted: 0,
    deleted: 0,
    requests: 0,
    matched: false,
  };
  const run: Run = { ...context, report };
  for (let round = 0; round < rounds; round++) {
    report.rounds++;
    const fixed = await verifyRange(run, firstDay, lastDay, TRANSACTION_STATUSES);
    if (!fixed) {
      report.matched = true;
      break;
    }
  }
  return report;
}

/** The upstream's exact count of rows in [from, to] (UTC days; from null = open) with a status. */
async function upstreamCount(run: Run, from: string | null, to: string, status: TransactionStatus): Promise<number> {
  run.report.requests++;
  const reply = await run.list({ ...(from === null ? {} : { from }), to, status, page: 1, limit: 1 });
  return reply.total;
}

/** The statuses among `statuses` whose upstream count over [from, to] differs from `mirror`'s. */
async function mismatchedStatuses(
  run: Run,
  from: string | null,
  to: string,
  statuses: readonly TransactionStatus[],
  mirror: StatusCounts,
): Promise<TransactionStatus[]> {
  const mismatched: TransactionStatus[] = [];
  for (const status of statuses) {
    if ((await upstreamCount(run, from, to, status)) !== mirror[status]) mismatched.push(status);
  }
  return mismatched;
}

/**
 * Compares the counts of `statuses` over [from, to]; on a mismatch bisects to single days and fetches those again.
 * Returns whether anything differed (and so was fixed).
 */
async function verifyRange(
  run: Run,
  from: string | null,
  to: string,
  statuses: readonly TransactionStatus[],
): Promise<boolean> {
  const mirror = await countsByStatus(run.store, run.customerId, {
    fromMs: from === null ? undefined : dayStartMs(from),
    toMs: dayStartMs(to) + DAY_MS,
  });
  const mismatched = await mismatchedStatuses(run, from, to, statuses, mirror);
  if (mismatched.length === 0) return false;
  if (from === null) {
    await verifyOpenStart(run, to, mismatched);
    return true;
  }
  if (from === to) {
    await refetch(run, from, to);
    return true;
  }
  const mid = addDays(from, Math.floor(daysBetween(from, to) / 2));
  await verifyRange(run, from, mid, mismatched);
  await verifyRange(run, addDays(mid, 1), to, mismatched);
  return true;
}

/** Open start: split at the mirror's oldest day. Below it the mirror holds nothing, so that part is fetched whole. */
async function verifyOpenStart(run: Run, to: string, mismatched: readonly TransactionStatus[]): Promise<void> {
  const { oldestMs } = await run.store.extent(run.customerId);
  const oldestDay = oldestMs === null ? to : utcDay(oldestMs);
  if (oldestDay > to) {
    await refetch(run, null, to);
    return;
  }
  const below = addDays(oldestDay, -1);
  const belowCounts = await countsByStatus(run.store, run.customerId, { toMs: dayStartMs(oldestDay) });
  // Every mismatched status is counted below (no early exit), as the requests in the report show.
  const belowDiffers = (await mismatchedStatuses(run, null, below, mismatched, belowCounts)).length > 0;
  if (belowDiffers) await refetch(run, null, below);
  await verifyRange(run, oldestDay, to, mismatched);
}

/** Fetches [from, to] (UTC days) again, whole, and makes the mirror's rows of those days exactly what came back. */
async function refetch(run: Run, from: string | null, to: string): Promise<void> {
  const items: Transaction[] = [];
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    run.report.requests++;
    const reply = await run.list({ ...(from === null ? {} : { from }), to, page, limit: run.pageSize });
    for (const t of reply.items) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      items.push(t);
    }
    if (reply.items.length === 0 || page >= reply.pages) break;
  }
  const range = { fromMs: from === null ? undefined : dayStartMs(from), toMs: dayStartMs(to) + DAY_MS };
  const now = run.now();
  await run.beforeWrite();
  await run.store.transaction(async (trx) => {
    const gone = (await run.store.idsIn(run.customerId, range, trx)).filter((id) => !seen.has(id));
    run.report.deleted += await run.store.deleteTransactions(run.customerId, gone, trx);
    await run.store.upsertTransactions(run.customerId, items, now, trx);
  });
  run.report.upserted += items.length;
  run.report.refetchedDays.push(from === null ? `…${to}` : from === to ? from : `${from}…${to}`);
}
