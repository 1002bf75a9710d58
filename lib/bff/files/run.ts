import { RecentIds } from "@/lib/fleet-api";
import type { Transaction } from "@/lib/model";

/**
 * Ids an export remembers to drop repeats it is handed. The transaction walk already delivers each id once (see
 * `iterateTransactions`); this second, bounded check catches a repeat within the last rows of any other source.
 */
export const EXPORT_RECENT_IDS = 1_000;

/**
 * One export's rows: pulled one at a time, ids seen among the recent ones dropped (memory stays bounded whatever the
 * size), and the upstream walk stopped on cancel/abort. Both writers and the web stream share it.
 */
export class ExportRun {
  readonly #iterator: AsyncIterator<Transaction>;
  readonly #recent = new RecentIds(EXPORT_RECENT_IDS);
  readonly #stopper = new AbortController();
  readonly #onRow: ((rowsDone: number) => void) | undefined;
  #iteratorFinished = false;
  rowsDone = 0;

  constructor(rows: AsyncIterable<Transaction>, onRow: ((rowsDone: number) => void) | undefined) {
    this.#iterator = rows[Symbol.asyncIterator]();
    this.#onRow = onRow;
  }

  /** A method, not a getter: it changes across awaits, which type narrowing would not see. */
  isStopped(): boolean {
    return this.#stopper.signal.aborted;
  }

  /** Aborted when the run is stopped: every wait of the producers listens to it. */
  get stopSignal(): AbortSignal {
    return this.#stopper.signal;
  }

  /** The next row whose id is not among the recent ones; null at the end, or once stopped. */
  async next(): Promise<Transaction | null> {
    for (;;) {
      if (this.isStopped()) return null;
      let result: IteratorResult<Transaction>;
      try {
        result = await this.#iterator.next();
      } catch (error) {
        this.#iteratorFinished = true; // an iterator that threw is done; nothing to return()
        throw error;
      }
      if (result.done === true) {
        this.#iteratorFinished = true;
        return null;
      }
      if (this.isStopped()) return null;
      if (this.#recent.has(result.value.id)) continue;
      this.#recent.add(result.value.id);
      return result.value;
    }
  }

  rowWritten(): void {
    this.rowsDone++;
    this.#onRow?.(this.rowsDone);
  }

  /** Stops producing and the upstream walk. Idempotent. */
  stop(reason: unknown): void {
    if (!this.isStopped()) this.#stopper.abort(reason);
    this.closeRows();
  }

  /** `return()` on the rows iterator, once, unless it finished by itself (an async generator queues it behind a pending `next()`). */
  closeRows(): void {
    if (this.#iteratorFinished) return;
    this.#iteratorFinished = true;
    const returned = this.#iterator.return?.();
    if (returned !== undefined) {
      returned.then(
        () => undefined,
        () => undefined, // the walk's own clean-up failing must not fail the export a second time
      );
    }
  }
}
