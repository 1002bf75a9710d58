import {
  type Credentials,
  type FleetApiClient,
  isFleetApiError,
  reserveOf,
  TRANSACTIONS_PAGE_MAX,
} from "@/lib/fleet-api";
import type { Page, Transaction, TransactionFilter } from "@/lib/model";

import { MemorySyncLock, type SyncLease, SyncLeaseLost, type SyncLock } from "./lock";
import type { MirrorStore } from "./store";
import { maxOf, minOf, utcDay } from "./sync-days";
import type { MirrorSyncOptions, RunOptions, SyncOutcome } from "./sync-types";
import { type VerificationReport, verifyCounts } from "./sync-verify";

/**
 * The sync engine: keeps one customer's mirror equal to the upstream's list, through lib/fleet-api only, at bulk
 * priority and never in the last quarter of the key's budget window (`keepReserve`, the rule the price checks use).
 *
 * - Head sync: page 1 (newest first) down to the newest known instant minus the lookback (72 h), upserting by id, so
 *   new rows, late rows and status changes inside the window are caught.
 * - Backfill: the older pages (`to=` the oldest covered UTC day), one page per transaction together with its cursor,
 *   so a crash or restart resumes at the next page with nothing lost and nothing twice (rows are keyed by id).
 * - Verification (./sync-verify): the upstream's `total` for a filter is an exact count. Counts per status over the covered days are
 *   compared with the mirror's; a mismatch is bisected down to single UTC days, and only those days are fetched again
 *   (rows the upstream no longer returns are deleted). Repeated until a pass finds nothing (bounded rounds).
 *
 * The key pair is the caller's, held in memory for the call only; nothing here stores it. A 401 stops the sync and
 * is reported (`unauthenticated`), so the caller can end that key's sessions.
 */

const DEFAULT_LOOKBACK_MS = 72 * 3_600_000;
const DEFAULT_VERIFY_ROUNDS = 4;
/** Backfill pages in flight at once: enough to hide a page's latency when the budget allows several a second. */
const BACKFILL_PREFETCH = 4;

class Stop extends Error {
  constructor(readonly reason: "unauthenticated" | "aborted") {
    super(reason);
  }
}

export class MirrorSync {
  readonly #store: MirrorStore;
  readonly #client: FleetApiClient;
  readonly #lock: SyncLock;
  readonly #now: () => number;
  readonly #lookbackMs: number;
  readonly #pageSize: number;
  readonly #windowMs: number;
  readonly #verifyRounds: number;

  constructor(options: MirrorSyncOptions) {
    this.#store = options.store;
    this.#client = options.client;
    this.#lock = options.lock ?? new MemorySyncLock();
    this.#now = options.now ?? Date.now;
    this.#lookbackMs = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
    this.#pageSize = options.pageSize ?? TRANSACTIONS_PAGE_MAX;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#verifyRounds = options.verifyRounds ?? DEFAULT_VERIFY_ROUNDS;
  }

  /** Runs the phases for one customer; `busy` when another sync of that customer is running. */
  async run(customerId: string, credentials: Credentials, options: RunOptions = {}): Promise<SyncOutcome> {
    const lease = await this.#lock.tryAcquire(customerId);
    if (!lease) return { status: "busy" };
    const phases = options.phases ?? ["head", "backfill", "verify"];
    let verification: VerificationReport | null = null;
    try {
      if (phases.includes("head")) await this.#head(customerId, credentials, options, lease);
      if (phases.includes("backfill")) await this.#backfill(customerId, credentials, options, lease);
      if (phases.includes("verify")) verification = await this.#verify(customerId, credentials, options, lease);
      const state = await this.#store.getSyncState(customerId);
      if (state.lastError !== null) {
        await lease.confirm();
        await this.#store.putSyncState({ ...state, lastError: null }, this.#now());
      }
      return { status: "done", state: { ...state, lastError: null }, verification };
    } catch (error) {
      // The lease went to another instance mid-run: that instance syncs this customer now, and this one writes nothing
      // more (not even its error), so two instances never write one customer's mirror at once.
      if (error instanceof SyncLeaseLost) return { status: "busy" };
      const state = await this.#store.getSyncState(customerId);
      const stop = this.#classify(error, options.signal);
      if (stop === "aborted") return { status: "aborted", state };
      const held = await lease.confirm().then(
        () => true,
        () => false,
      );
      if (!held) return { status: "busy" }; // nor its error: the lease is another instance's now
      const lastError =
        stop === "unauthenticated" ? "unauthenticated" : isFleetApiError(error) ? error.code : "internal";
      await this.#store.putSyncState({ ...state, lastError }, this.#now());
      if (stop === "unauthenticated") return { status: "unauthenticated", state: { ...state, lastError } };
      return {
        status: "failed",
        state: { ...state, lastError },
        error: error instanceof Error ? error.message : String(error),
      };
    } finally {
      await lease.release();
    }
  }

  #classify(error: unknown, signal: AbortSignal | undefined): "unauthenticated" | "aborted" | "other" {
    if (error instanceof Stop) return error.reason;
    if (signal?.aborted) return "aborted";
    if (isFleetApiError(error)) {
      if (error.code === "aborted") return "aborted";
      if (error.status === 401 || error.code === "unauthenticated" || error.code === "invalid_credentials")
        return "unauthenticated";
    }
    return "other";
  }

  /** One list call at bulk priority that keeps the reserve. */
  #list(
    credentials: Credentials,
    query: TransactionFilter & { page: number; limit: number },
    signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted) throw new Stop("aborted");
    return this.#client.listTransactions(credentials, query, {
      priority: "bulk",
      keepReserve: true,
      ...(signal ? { signal } : {}),
    });
  }

  async #head(customerId: string, credentials: Credentials, options: RunOptions, lease: SyncLease): Promise<void> {
    const before = await this.#store.getSyncState(customerId);
    const stopBeforeMs = before.newestAtMs === null ? null : before.newestAtMs - this.#lookbackMs;
    let state = before;
    let seenNewest: number | null = null;
    for (let page = 1; ; page++) {
      const reply = await this.#list(credentials, { page, limit: this.#pageSize }, options.signal);
      const ats = reply.items.map((t) => Date.parse(t.at));
      const newest = ats.length ? Math.max(...ats) : null;
      const oldest = ats.length ? Math.min(...ats) : null;
      const reachedEnd = reply.items.length === 0 || page >= reply.pages;
      const isLast = reachedEnd || stopBeforeMs === null || (oldest !== null && oldest < stopBeforeMs);
      seenNewest = maxOf(seenNewest, newest);
      const now = this.#now();
      state = {
        ...state,
        // The newest instant moves up only when the walk reached the lookback: a head sync cut short must not leave
        // the rows between the old newest and the new one to a later walk that would stop above them.
        newestAtMs: isLast ? maxOf(before.newestAtMs, seenNewest) : before.newestAtMs,
        // Only the first head sync of an empty mirror sets the coverage; later ones fill in above it.
        coverageFromMs: state.coverageFromMs ?? oldest,
        backfill:
          reachedEnd && before.newestAtMs === null
            ? { toDay: null, nextPage: null, expected: reply.total, doneRows: reply.items.length, complete: true }
            : state.backfill,
        lastHeadSyncMs: now,
      };
      const next = state;
      await lease.confirm();
      await this.#store.transaction(async (trx) => {
        await this.#store.upsertTransactions(customerId, reply.items, now, trx);
        await this.#store.putSyncState(next, now, trx);
      });
      options.onProgress?.({ phase: "head", rowsDone: 0, rowsExpected: null, timeLeftMs: null });
      if (isLast) return;
    }
  }

  async #backfill(customerId: string, credentials: Credentials, options: RunOptions, lease: SyncLease): Promise<void> {
    let state = await this.#store.getSyncState(customerId);
    if (state.backfill.complete || state.coverageFromMs === null) return;
    if (state.backfill.toDay === null) {
      // Re-read the oldest covered day whole: the head sync may have stopped in its middle.
      state = {
        ...state,
        backfill: { toDay: utcDay(state.coverageFromMs), nextPage: 1, expected: null, doneRows: 0, complete: false },
      };
    }
    // Pages are fetched a few ahead (the budget still paces them) and written strictly in order, so the persisted
    // cursor always names the first page not yet written; a prefetched page lost in a crash is simply fetched again.
    const prefetch = new AbortController();
    const onAbort = () => {
      prefetch.abort(options.signal?.reason);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const ahead = new Map<number, Promise<Page<Transaction>>>();
    let knownPages: number | null = null;
    try {
      for (;;) {
        const { toDay, nextPage } = state.backfill;
        if (toDay === null || nextPage === null) return;
        const last = knownPages === null ? nextPage : Math.min(knownPages, nextPage + BACKFILL_PREFETCH - 1);
        for (let page = nextPage; page <= last; page++) {
          if (ahead.has(page)) continue;
          const fetching = this.#list(credentials, { to: toDay, page, limit: this.#pageSize }, prefetch.signal);
          fetching.catch(() => undefined); // awaited in order below; a prefetch cut short is not "unhandled"
          ahead.set(page, fetching);
        }
        const reply = await (ahead.get(nextPage) ??
          this.#list(credentials, { to: toDay, page: nextPage, limit: this.#pageSize }, prefetch.signal));
        ahead.delete(nextPage);
        knownPages = reply.pages;
        const ats = reply.items.map((t) => Date.parse(t.at));
        const done = reply.items.length === 0 || nextPage >= reply.pages;
        const now = this.#now();
        const expected = state.backfill.expected ?? reply.total;
        state = {
          ...state,
          coverageFromMs: ats.length ? Math.min(state.coverageFromMs ?? Infinity, ...ats) : state.coverageFromMs,
          backfill: done
            ? {
                toDay: null,
                nextPage: null,
                expected,
                doneRows: state.backfill.doneRows + reply.items.length,
                complete: true,
              }
            : {
                toDay,
                nextPage: nextPage + 1,
                expected,
                doneRows: state.backfill.doneRows + reply.items.length,
                complete: false,
              },
        };
        const next = state;
        await lease.confirm();
        await this.#store.transaction(async (trx) => {
          await this.#store.upsertTransactions(customerId, reply.items, now, trx);
          await this.#store.putSyncState(next, now, trx);
        });
        options.onProgress?.({
          phase: "backfill",
          rowsDone: next.backfill.doneRows,
          rowsExpected: expected,
          timeLeftMs: await this.#timeLeft(credentials, done ? 0 : Math.max(0, expected - next.backfill.doneRows)),
        });
        if (done) return;
        if (options.signal?.aborted) throw new Stop("aborted");
      }
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      prefetch.abort(new Error("backfill ended"));
    }
  }

  /** Pages left at the pace of `budget − reserve` requests per window. */
  async #timeLeft(credentials: Credentials, rowsLeft: number): Promise<number> {
    const { budget } = await this.#client.budgetUse(credentials);
    const perWindow = Math.max(1, budget - reserveOf(budget));
    const pages = Math.ceil(rowsLeft / this.#pageSize);
    return Math.ceil(pages / perWindow) * this.#windowMs;
  }

  async #verify(
    customerId: string,
    credentials: Credentials,
    options: RunOptions,
    lease: SyncLease,
  ): Promise<VerificationReport | null> {
    const state = await this.#store.getSyncState(customerId);
    if (state.coverageFromMs === null) return null;
    const lastDay = utcDay(Math.max(this.#now(), state.newestAtMs ?? 0));
    // With the whole history mirrored the first range is open at the start, so rows older than the oldest are counted too.
    const firstDay = state.backfill.complete ? null : utcDay(state.coverageFromMs);
    const context = {
      store: this.#store,
      customerId,
      list: (query: TransactionFilter & { page: number; limit: number }) =>
        this.#list(credentials, query, options.signal),
      pageSize: this.#pageSize,
      now: this.#now,
      beforeWrite: () => lease.confirm(),
    };
    const report = await verifyCounts(context, firstDay, lastDay, this.#verifyRounds);
    const after = await this.#store.getSyncState(customerId);
    const extent = await this.#store.extent(customerId);
    await lease.confirm();
    await this.#store.putSyncState(
      {
        ...after,
        lastVerificationMs: this.#now(),
        lastVerification: report,
        newestAtMs: maxOf(after.newestAtMs, extent.newestMs),
        coverageFromMs: minOf(after.coverageFromMs, extent.oldestMs),
      },
      this.#now(),
    );
    options.onProgress?.({
      phase: "verify",
      rowsDone: after.backfill.doneRows,
      rowsExpected: after.backfill.expected,
      timeLeftMs: 0,
    });
    return report;
  }
}
