import { once } from "node:events";
import type { Readable } from "node:stream";

import type { ExportRun } from "./run";

/** The contract between a writer (CSV, XLSX) and the web stream that serves its bytes. */

/** What a writer gives the web stream: the bytes, and how it ended (never rejects). */
export interface Production {
  output: Readable;
  /** Settles after the writer stops writing: `null` when it succeeded, else the failure. */
  outcome: Promise<{ error: unknown } | null>;
  /** XLSX: a failure errors the stream at once (a half-written zip is useless); CSV: only after the output ends. */
  failFast: boolean;
}

export const settle = (work: Promise<void>): Promise<{ error: unknown } | null> =>
  work.then(
    () => null,
    (error: unknown) => ({ error }),
  );

/** Resolves when `emitter` emits `event`; rejects (AbortError) when the run stops first. */
export async function waitFor(emitter: NodeJS.EventEmitter, event: string, run: ExportRun): Promise<void> {
  await once(emitter, event, { signal: run.stopSignal });
}

/** Output streams' errors surface through `readChunk` (`readable.errored`); this only keeps them from being unheard. */
export const ignoreError = (): void => undefined;
