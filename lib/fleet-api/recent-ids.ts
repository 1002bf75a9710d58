import "server-only";

/**
 * The ids of the last `capacity` items added: a set that forgets its oldest entries, so memory follows the capacity,
 * not the number of items ever added. For dropping repeats that can only come from nearby (a page walk whose pages
 * shift while it runs, see `FleetApiClient.iterateTransactions`).
 */
export class RecentIds {
  #capacity: number;
  readonly #ids = new Set<string>();
  /** Insertion order; entries before `#head` were forgotten. Compacted once half of it is forgotten. */
  #order: string[] = [];
  #head = 0;

  constructor(capacity: number) {
    this.#capacity = checkCapacity(capacity);
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** How many ids are remembered now (at most `capacity`). */
  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Remembers `id` as the newest; forgets the oldest ids beyond the capacity. */
  add(id: string): void {
    if (this.#ids.has(id)) return;
    this.#ids.add(id);
    this.#order.push(id);
    this.#trim();
  }

  /** Raises the capacity (it never shrinks: what is remembered stays remembered until pushed out). */
  growTo(capacity: number): void {
    this.#capacity = Math.max(this.#capacity, checkCapacity(capacity));
  }

  #trim(): void {
    while (this.#ids.size > this.#capacity) {
      const oldest = this.#order[this.#head];
      if (oldest === undefined) break;
      this.#ids.delete(oldest);
      this.#head++;
    }
    if (this.#head > 64 && this.#head * 2 >= this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

function checkCapacity(capacity: number): number {
  if (!Number.isSafeInteger(capacity) || capacity < 1)
    throw new RangeError(`a capacity must be a whole number ≥ 1, got ${String(capacity)}`);
  return capacity;
}
