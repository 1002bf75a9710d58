import { parseQuery, refuseHead, withSession } from "@/lib/bff/handler";
import { now } from "@/lib/bff/clock";
import { getConfig } from "@/lib/bff/config";
import { contentDisposition, EXPORT_CONTENT_TYPES, exportFilename, exportTransactions } from "@/lib/bff/export";
import { trackExport } from "@/lib/bff/export-progress";
import { dateCoverageOf, ExportQuery, upstreamFilterOf } from "@/lib/bff/params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "@/lib/bff/reference-search";
import { logger } from "@/lib/bff/log";
import { exportLimit } from "@/lib/bff/running-limit";
import { fleetApi } from "@/lib/bff/upstream";
import { isInsideInstants, needsTrim, trimOf } from "@/lib/bff/zoned-transactions";
import { keyFingerprint, TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { Page, Transaction, TransactionFilter } from "@/lib/model";

type Outcome = "done" | "failed" | "cancelled";

// GET /api/transactions/export — the whole filtered set as a streamed file: format=csv or xlsx, plus the list's filters
export const GET = withSession("GET /api/transactions/export", async ({ request, session, key }) => {
  const q = parseQuery(request, ExportQuery);
  // What the person chose (days of `tz`) names and describes the file; the upstream gets those days as instants.
  const filters: TransactionFilter = {
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.search ? { search: q.search } : {}),
  };
  // A slot first (429 beyond 3 running per session, 5 per key): a refused export spends no upstream call.
  const slot = exportLimit().acquire(session.sid, key);
  // Stops the upstream walk — and page 1, the budget wait included — when the browser goes away (the body's cancel
  // and an unread download do too).
  const stop = new AbortController();
  const started = performance.now();
  let rowsDone = 0;
  let expectedRows: number | null = null;
  const upstreamFilter = upstreamFilterOf(q);
  let outcome: Outcome | null = null;
  // However the export ends, exactly once: the slot is freed and one log line says how.
  const end = (result: Outcome, reason?: string) => {
    if (outcome !== null) return;
    outcome = result;
    slot.release();
    logger().info(
      {
        route: "GET /api/transactions/export",
        outcome: result,
        ...(reason ? { reason } : {}),
        rows: rowsDone,
        expectedRows,
        durationMs: Math.round(performance.now() - started),
        key: keyFingerprint(session.credentials.keyId),
      },
      "export ended",
    );
  };
  const onGone = () => {
    stop.abort();
  };
  stop.signal.addEventListener(
    "abort",
    () => {
      end("cancelled");
    },
    { once: true },
  );
  request.signal.addEventListener("abort", onGone, { once: true });
  if (request.signal.aborted) onGone();

  // Page 1 first, before any byte is sent: a missing scope or an unreachable upstream is still a clear JSON error.
  // A reference search exports what the list shows: the rows the reference lookup found (one page, so the walk
  // below asks the upstream for nothing more); the upstream's own search does not match references.
  // A dates-only upstream is sent the UTC days that cover the zone's days: the walk keeps the instants' rows only,
  // and the rows to expect are the trimmed count (the list's, lib/bff/zoned-transactions).
  const isTrimmed = fleetApi().transactionDateStyle() === "date" && needsTrim(upstreamFilter);
  const isInside = isTrimmed ? isInsideInstants(upstreamFilter) : () => true;
  let firstPage: Page<Transaction>;
  try {
    const byReference =
      upstreamFilter.search !== undefined && isReferenceLike(upstreamFilter.search)
        ? (
            await findByReferenceCached(
              session.credentials,
              withoutSearch(upstreamFilter),
              upstreamFilter.search,
              stop.signal,
            )
          ).matches.filter(isInside)
        : [];
    if (byReference.length > 0) {
      firstPage = { page: 1, limit: TRANSACTIONS_PAGE_MAX, total: byReference.length, pages: 1, items: byReference };
      expectedRows = byReference.length;
    } else {
      firstPage = await fleetApi().listTransactions(
        session.credentials,
        { ...upstreamFilter, page: 1, limit: TRANSACTIONS_PAGE_MAX },
        { priority: "bulk", signal: stop.signal },
      );
      const trim = isTrimmed
        ? await trimOf(key, session.credentials, upstreamFilter, { priority: "bulk", signal: stop.signal }, firstPage)
        : null;
      expectedRows = trim === null ? firstPage.total : Math.max(0, trim.coveringTotal - trim.head - trim.tail);
    }
  } catch (error) {
    end(stop.signal.aborted ? "cancelled" : "failed");
    throw error;
  }
  const meta = {
    filters,
    dateFilter: dateCoverageOf(q),
    generatedAt: new Date(now()),
    customer: { name: session.customerName ?? "", code: session.customerCode },
    expectedRows,
  };
  // Registered before the Response is returned: the page starts polling only once it has the response, so no poll is too early.
  const progress = q.exportId ? trackExport(session.sid, key, q.exportId, expectedRows) : undefined;

  const walk = fleetApi().iterateTransactions(session.credentials, upstreamFilter, {
    firstPage,
    signal: stop.signal,
    priority: "bulk",
  });
  async function* tracked(): AsyncGenerator<Transaction> {
    let finished = false;
    try {
      for await (const transaction of walk) if (isInside(transaction)) yield transaction;
      finished = true;
      progress?.finish("done");
    } catch (error) {
      progress?.finish(
        stop.signal.aborted ? "cancelled" : "failed",
        stop.signal.aborted ? null : "The Fleet Fuel API stopped answering during the export.",
      );
      throw error;
    } finally {
      if (!finished) progress?.finish("cancelled");
    }
  }
  const file = exportTransactions(q.format, tracked(), meta, {
    onRow: (n) => {
      rowsDone = n;
      progress?.row(n);
    },
    signal: stop.signal,
  });
  // The response body: the file, plus what must happen when it ends — a cancel (the browser went away) aborts the
  // page request and budget wait in flight; a download nobody reads from for EXPORT_IDLE_SECONDS is cancelled the
  // same way (it would otherwise hold its slot and its place in the budget queue for as long as the socket stays open).
  const idleMs = getConfig().exportIdleMs;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const reader = file.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(idle);
        try {
          const { done: finished, value } = await reader.read();
          if (finished) {
            controller.close();
            end("done");
            return;
          }
          controller.enqueue(value);
          // Waiting for the next read from here on: the idle clock runs until the next pull.
          idle = setTimeout(() => {
            const message = `The download was not read for ${String(Math.round(idleMs / 1000))} s, so the export was stopped.`;
            progress?.finish("cancelled", message);
            end("cancelled", "idle");
            stop.abort();
            controller.error(new Error(message));
            reader.cancel().catch(() => undefined);
          }, idleMs);
        } catch (error) {
          // The walk stopped because the export was cancelled (the browser left, or the idle limit): not a failure.
          end(stop.signal.aborted ? "cancelled" : "failed");
          controller.error(error);
        }
      },
      async cancel(reason) {
        clearTimeout(idle);
        stop.abort();
        end("cancelled");
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[q.format],
      "Content-Disposition": contentDisposition(exportFilename(q.format, meta)),
      "X-Export-Total": String(expectedRows),
      "Cache-Control": "no-store",
    },
  });
});

// HEAD: 405, nothing run (Next would otherwise run GET for it).
export const HEAD = refuseHead;
