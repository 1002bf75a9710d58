import { withSession, parseQuery } from "@/lib/bff/handler";
import { now } from "@/lib/bff/clock";
import { contentDisposition, EXPORT_CONTENT_TYPES, exportFilename, exportTransactions } from "@/lib/bff/export";
import { trackExport } from "@/lib/bff/export-progress";
import { dateCoverageOf, ExportQuery, upstreamFilterOf } from "@/lib/bff/params";
import { logger } from "@/lib/bff/log";
import { fleetApi } from "@/lib/bff/upstream";
import { isInsideInstants, needsTrim, trimOf } from "@/lib/bff/zoned-transactions";
import { keyFingerprint, TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { Transaction, TransactionFilter } from "@/lib/model";

// GET /api/transactions/export — the whole filtered set as a streamed file: format=csv or xlsx, plus the list's filters
export const GET = withSession("GET /api/transactions/export", async ({ request, session, key }) => {
  const q = parseQuery(request, ExportQuery);
  // What the person chose (days of `tz`) names and describes the file; the upstream gets those days as instants.
  const filters: TransactionFilter = { ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
  const upstreamFilter = upstreamFilterOf(q);
  // Page 1 first, before any byte is sent: a missing scope or an unreachable upstream is still a clear JSON error.
  const firstPage = await fleetApi().listTransactions(session.credentials, { ...upstreamFilter, page: 1, limit: TRANSACTIONS_PAGE_MAX }, { priority: "bulk" });
  // A dates-only upstream sent the UTC days that cover the zone's days: the walk keeps the instants' rows only, and
  // the rows to expect are the trimmed count (the list's, lib/bff/zoned-transactions).
  const isTrimmed = fleetApi().transactionDateStyle() === "date" && needsTrim(upstreamFilter);
  const isInside = isTrimmed ? isInsideInstants(upstreamFilter) : () => true;
  const trim = isTrimmed ? await trimOf(key, session.credentials, upstreamFilter, { priority: "bulk" }, firstPage) : null;
  const expectedRows = trim === null ? firstPage.total : Math.max(0, trim.coveringTotal - trim.head - trim.tail);
  const meta = {
    filters,
    dateFilter: dateCoverageOf(q),
    generatedAt: new Date(now()),
    customer: { name: session.customerName ?? "", code: session.customerCode },
    expectedRows,
  };
  const progress = q.exportId ? trackExport(session.sid, q.exportId, expectedRows) : undefined;

  // Stops the upstream walk when the browser goes away (the stream's cancel does too).
  const stop = new AbortController();
  request.signal.addEventListener("abort", () => { stop.abort(); }, { once: true });
  const walk = fleetApi().iterateTransactions(session.credentials, upstreamFilter, { firstPage, signal: stop.signal, priority: "bulk" });
  async function* tracked(): AsyncGenerator<Transaction> {
    let finished = false;
    try {
      for await (const transaction of walk) if (isInside(transaction)) yield transaction;
      finished = true;
      progress?.finish("done");
    } catch (error) {
      progress?.finish(stop.signal.aborted ? "cancelled" : "failed", stop.signal.aborted ? null : "The Fleet Fuel API stopped answering during the export.");
      throw error;
    } finally {
      if (!finished) progress?.finish("cancelled");
    }
  }
  let rowsDone = 0;
  const file = exportTransactions(q.format, tracked(), meta, {
    onRow: (n) => {
      rowsDone = n;
      progress?.row(n);
    },
    signal: stop.signal,
  });
  // The response body: the file, plus what must happen when it ends — a cancel (the browser went away) aborts the
  // page request and budget wait in flight, and one log line says how the export ended.
  const started = performance.now();
  const reader = file.getReader();
  const done = (outcome: string) => {
    logger().info({ route: "GET /api/transactions/export", outcome, rows: rowsDone, expectedRows, durationMs: Math.round(performance.now() - started), key: keyFingerprint(session.credentials.keyId) }, "export ended");
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          controller.close();
          done("done");
        } else controller.enqueue(value);
      } catch (error) {
        done("failed");
        controller.error(error);
      }
    },
    async cancel(reason) {
      stop.abort();
      done("cancelled");
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[q.format],
      "Content-Disposition": contentDisposition(exportFilename(q.format, meta)),
      "X-Export-Total": String(expectedRows),
      "Cache-Control": "no-store",
    },
  });
});
