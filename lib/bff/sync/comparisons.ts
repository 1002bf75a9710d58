import "server-only";

import { savingsConfig } from "@/lib/insights/savings-config";
import { compareAllPending } from "@/lib/insights/savings-stored";
import type { MirrorStore, SyncLock } from "@/lib/mirror";

import { getConfig } from "../platform/config";
import { offThread } from "../platform/off-thread/pool";

export interface BackgroundComparisonsOptions {
  /** The sync's lock (Redis with several instances): the loop holds a lease of its own key on it. */
  lock: SyncLock;
  warn: (fields: Record<string, unknown>, message: string) => void;
  /** Runs the loop outside the request that kicked it (as the sync's runs). */
  detach?: <T>(fn: () => T) => T;
  /** Fills per batch (default COMPARE_BATCH, 2,000). */
  batch?: number;
}

/**
 * The stored savings comparisons computed in the background (issue 25): after the sync's writes, after a catalog walk,
 * and when GET /api/savings finds more pending fills than it computes itself, `kick` starts one loop per customer in
 * this process — bounded batches (COMPARE_BATCH fills), each judged off the request thread (the worker pool's
 * read-only connection on SQLite; inline on PostgreSQL, whose driver is async and whose judging yields every 250
 * fills) and written on the writing connection, yielding to the event loop between batches — until none is pending.
 * With several instances one loop per customer runs at a time: it holds a lease `comparisons:<customer>` on the sync's
 * lock (Redis), a key of its own so the first computation of a large mirror (minutes) never holds up a head sync. A
 * kick while the loop runs makes it look again before it ends; a failed loop is logged and the next kick retries.
 */
export class BackgroundComparisons {
  readonly #start: () => Promise<MirrorStore>;
  readonly #options: BackgroundComparisonsOptions;
  readonly #running = new Map<string, Promise<void>>();
  readonly #again = new Set<string>();

  constructor(start: () => Promise<MirrorStore>, options: BackgroundComparisonsOptions) {
    this.#start = start;
    this.#options = options;
  }

  kick(customerId: string): void {
    if (this.#running.has(customerId)) {
      this.#again.add(customerId);
      return;
    }
    const work = async () => {
      try {
        do {
          this.#again.delete(customerId);
          await this.#loop(customerId);
        } while (this.#again.has(customerId));
      } catch (error) {
        this.#options.warn(
          { customer: customerId, err: error instanceof Error ? error.message : String(error) },
          "computing the savings comparisons failed",
        );
      } finally {
        this.#running.delete(customerId);
      }
    };
    const { detach } = this.#options;
    this.#running.set(customerId, detach ? detach(work) : work());
  }

  /** Tests, shutdown: resolves once no loop of the customer runs in this process. */
  async settled(customerId: string): Promise<void> {
    for (let r = this.#running.get(customerId); r !== undefined; r = this.#running.get(customerId)) await r;
  }

  async #loop(customerId: string): Promise<void> {
    const store = await this.#start();
    const lease = await this.#options.lock.tryAcquire(`comparisons:${customerId}`);
    // Another instance's loop computes them (and is kicked by its own writes and walks).
    if (lease === undefined) return;
    try {
      const { radiusMiles, windowMs } = savingsConfig();
      const params = { radiusMiles, windowMs };
      const workers = getConfig().mirrorWorkers;
      await compareAllPending(store, customerId, params, {
        ...(this.#options.batch === undefined ? {} : { batch: this.#options.batch }),
        judge: (ask) => offThread(store, workers, "savings.judge-pending", { customerId, params, ...ask }),
        between: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          await lease.confirm();
        },
      });
    } finally {
      await lease.release();
    }
  }
}
