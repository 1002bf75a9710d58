/**
 * One sync per customer at a time. In-process now; a Redis implementation (SET key NX PX with a token, renewed while
 * the sync runs, released by a compare-and-delete script) can implement the same interface when several app
 * instances share one store.
 */
export interface SyncLease {
  /**
   * Resolves while the lease is still this holder's; throws `SyncLeaseLost` once it is not (expired, or taken over by
   * another instance). The sync asks before each write, so a holder that lost its lease stops writing.
   */
  confirm(): Promise<void>;
  release(): Promise<void>;
}

/** The sync's lease is gone (expired or another instance's now): the run stops without writing anything more. */
export class SyncLeaseLost extends Error {
  constructor(customerId: string) {
    super(`the sync lease of ${customerId} is no longer this instance's`);
    this.name = "SyncLeaseLost";
  }
}

export interface SyncLock {
  /** A lease on the customer's sync, or undefined when another sync of that customer holds it. */
  tryAcquire(customerId: string): Promise<SyncLease | undefined>;
}

export class MemorySyncLock implements SyncLock {
  readonly #held = new Set<string>();

  tryAcquire(customerId: string): Promise<SyncLease | undefined> {
    if (this.#held.has(customerId)) return Promise.resolve(undefined);
    this.#held.add(customerId);
    let released = false;
    return Promise.resolve({
      // In one process nobody else can take the lease: it is held until released.
      confirm: () => Promise.resolve(),
      release: () => {
        if (!released) {
          released = true;
          this.#held.delete(customerId);
        }
        return Promise.resolve();
      },
    });
  }
}
