/**
 * One sync per customer at a time. In-process now; a Redis implementation (SET key NX PX with a token, renewed while
 * the sync runs, released by a compare-and-delete script) can implement the same interface when several app
 * instances share one store.
 */
export interface SyncLease {
  release(): Promise<void>;
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
