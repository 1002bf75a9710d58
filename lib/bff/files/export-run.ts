import "server-only";

import { keyFingerprint } from "@/lib/fleet-api";
import type { Transaction } from "@/lib/model";

import type { OperationContext } from "../http/operation";
import { logger } from "../platform/log";
import { exportLimit } from "../platform/running-limit";
import type { trackExport } from "./export-progress";

type Outcome = "done" | "failed" | "cancelled";
type Progress = ReturnType<typeof trackExport> | undefined;

/**
 * One running export's lifetime: its slot (taken first: a refused export spends no upstream call), the controller
 * that stops the upstream walk — page 1 and the budget wait included — when the browser goes away, and its end:
 * exactly once, however it ends, the slot is freed and one log line says how.
 */
export class ExportRun {
  readonly stop = new AbortController();
  rows = 0;
  expectedRows: number | null = null;
  private outcome: Outcome | null = null;
  private readonly started = performance.now();
  private readonly slot: { release: () => void };

  constructor(
    private readonly ctx: OperationContext,
    /** The route the log line names (the jurisdiction report's export shares the slots and the log line). */
    private readonly route = "GET /api/transactions/export",
  ) {
    this.slot = exportLimit().acquire(ctx.session.sid, ctx.key);
    this.stop.signal.addEventListener(
      "abort",
      () => {
        this.end("cancelled");
      },
      { once: true },
    );
    const onGone = () => {
      this.stop.abort();
    };
    ctx.signal.addEventListener("abort", onGone, { once: true });
    if (ctx.signal.aborted) onGone();
  }

  /** How a failure ends the run: a walk stopped by the run's own abort was cancelled, anything else failed. */
  get failure(): "failed" | "cancelled" {
    return this.stop.signal.aborted ? "cancelled" : "failed";
  }

  end(result: Outcome, reason?: string): void {
    if (this.outcome !== null) return;
    this.outcome = result;
    this.slot.release();
    logger().info(
      {
        route: this.route,
        outcome: result,
        ...(reason ? { reason } : {}),
        rows: this.rows,
        expectedRows: this.expectedRows,
        durationMs: Math.round(performance.now() - this.started),
        key: keyFingerprint(this.ctx.session.credentials.keyId),
      },
      "export ended",
    );
  }
}

/** The walk's rows inside the zone's instants, reporting to the export's progress (polled by the page) how it ended. */
export async function* trackedRows(
  run: ExportRun,
  walk: AsyncIterable<Transaction>,
  isInside: (t: Transaction) => boolean,
  progress: Progress,
): AsyncGenerator<Transaction> {
  let finished = false;
  try {
    for await (const transaction of walk) if (isInside(transaction)) yield transaction;
    finished = true;
    progress?.finish("done");
  } catch (error) {
    const failure = run.failure;
    progress?.finish(
      failure,
      failure === "cancelled" ? null : "The Fleet Fuel API stopped answering during the export.",
    );
    throw error;
  } finally {
    if (!finished) progress?.finish("cancelled");
  }
}

/**
 * The response body: the file, plus what must happen when it ends — a cancel (the browser went away) aborts the page
 * request and budget wait in flight; a download nobody reads from for `idleMs` is cancelled the same way (it would
 * otherwise hold its slot and its place in the budget queue for as long as the socket stays open).
 */
export function guardedBody(
  run: ExportRun,
  file: ReadableStream<Uint8Array>,
  idleMs: number,
  progress: Progress,
): ReadableStream<Uint8Array> {
  let idle: ReturnType<typeof setTimeout> | undefined;
  const reader = file.getReader();
  const stopIdle = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const message = `The download was not read for ${String(Math.round(idleMs / 1000))} s, so the export was stopped.`;
    progress?.finish("cancelled", message);
    run.end("cancelled", "idle");
    run.stop.abort();
    controller.error(new Error(message));
    reader.cancel().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(idle);
        try {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            run.end("done");
            return;
          }
          controller.enqueue(value);
          // Waiting for the next read from here on: the idle clock runs until the next pull.
          idle = setTimeout(() => {
            stopIdle(controller);
          }, idleMs);
        } catch (error) {
          // The walk stopped because the export was cancelled (the browser left, or the idle limit): not a failure.
          run.end(run.failure);
          controller.error(error);
        }
      },
      async cancel(reason) {
        clearTimeout(idle);
        run.stop.abort();
        run.end("cancelled");
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
