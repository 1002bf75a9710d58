import type { Readable } from "node:stream";

import type { Production } from "./production";
import type { ExportRun } from "./run";

/**
 * Stream plumbing: a writer's Node stream served as a web stream, pull-based (nothing is produced before the first
 * read, and the writer waits whenever the reader does), with cancel and abort stopping the run.
 */

/**
 * Chunks handed to the web stream are at least this big (but the last): reading whatever is there would hand over
 * a record at a time, each its own write and HTTP chunk.
 */
const MIN_CHUNK_BYTES = 16 * 1024;

/** The next chunk of `readable` (≥ MIN_CHUNK_BYTES but the last), waiting for it; null at its end (or once destroyed). */
export function readChunk(readable: Readable): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    if (readable.errored !== null) {
      reject(readable.errored);
      return;
    }
    if (readable.readableEnded || readable.destroyed) {
      resolve(null);
      return;
    }
    const cleanup = (): void => {
      readable.off("readable", onReadable);
      readable.off("end", onEnd);
      readable.off("close", onEnd);
      readable.off("error", onError);
    };
    function onReadable(): void {
      // read(n) gives null until n bytes are buffered, or everything left once the stream has ended; n must not
      // exceed the high-water mark (Node would raise the mark, and the buffer with it).
      const chunk: unknown = readable.read(Math.min(MIN_CHUNK_BYTES, readable.readableHighWaterMark));
      if (chunk === null) return;
      cleanup();
      if (typeof chunk === "string") resolve(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) resolve(chunk);
      else reject(new TypeError("the export's output gave a chunk that is not bytes"));
    }
    function onEnd(): void {
      cleanup();
      resolve(null);
    }
    function onError(error: Error): void {
      cleanup();
      reject(error);
    }
    readable.on("readable", onReadable);
    readable.once("end", onEnd);
    readable.once("close", onEnd);
    readable.once("error", onError);
    onReadable();
  });
}

/** The web stream's source: starts the writer on the first pull, hands over its chunks, ends as the writer did. */
class ExportSource implements UnderlyingDefaultSource<Uint8Array> {
  #production: Production | null = null;
  #finished = false;
  #onAbort: (() => void) | null = null;

  constructor(
    private readonly run: ExportRun,
    private readonly produce: () => Production,
    private readonly signal: AbortSignal | undefined,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    const { signal } = this;
    if (signal === undefined) return;
    this.#onAbort = () => {
      if (this.#isFinished()) return;
      this.#stop(signal.reason);
      controller.error(signal.reason);
    };
    if (signal.aborted) this.#onAbort();
    else signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    if (this.#isFinished()) return;
    const production = this.#started(controller);
    let chunk: Uint8Array | null;
    try {
      chunk = await readChunk(production.output);
    } catch (error) {
      if (this.#isFinished()) return;
      this.#stop(error);
      controller.error(error);
      return;
    }
    if (this.#isFinished()) return;
    if (chunk !== null) {
      controller.enqueue(chunk);
      return;
    }
    // The output ended: the writer is done, and its outcome says whether the file is whole.
    const result = await production.outcome;
    if (this.#isFinished()) return;
    this.#finish();
    if (result === null) controller.close();
    else controller.error(result.error);
  }

  cancel(reason: unknown): void {
    this.#stop(reason);
  }

  /** A method, not the field: it changes across awaits, which type narrowing would not see. */
  #isFinished(): boolean {
    return this.#finished;
  }

  /** The writer, started on the first pull; a fail-fast one (XLSX) errors the stream as soon as it fails. */
  #started(controller: ReadableStreamDefaultController<Uint8Array>): Production {
    if (this.#production !== null) return this.#production;
    const production = this.produce();
    this.#production = production;
    if (production.failFast) {
      void production.outcome.then((result) => {
        if (result === null || this.#isFinished()) return;
        this.#stop(result.error);
        controller.error(result.error);
      });
    }
    return production;
  }

  #finish(): void {
    this.#finished = true;
    if (this.signal !== undefined && this.#onAbort !== null) this.signal.removeEventListener("abort", this.#onAbort);
  }

  #stop(reason: unknown): void {
    this.run.stop(reason);
    this.#production?.output.destroy();
    this.#finish();
  }
}

/**
 * The run's rows as a web stream of the file `produce` writes. Cancelling the stream or aborting `signal` stops the
 * run (and with it the upstream walk) and the writer.
 */
export function toWebStream(
  run: ExportRun,
  produce: () => Production,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  // Nothing queued on the web side: a chunk is produced only for a pending read (so nothing at all before the
  // first one). The Node side's buffers (≤ 16 KB CSV, ≤ 64 KB zip output) are the read-ahead.
  return new ReadableStream<Uint8Array>(new ExportSource(run, produce, signal), { highWaterMark: 0 });
}
