import { withSession, parseQuery } from "@/lib/bff/handler";
import { now } from "@/lib/bff/clock";
import { contentDisposition, EXPORT_CONTENT_TYPES, exportFilename, exportTransactions } from "@/lib/bff/export";
import { trackExport } from "@/lib/bff/export-progress";
import { ExportQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { Transaction, TransactionFilter } from "@/lib/model";

// GET /api/transactions/export — the whole filtered set as a streamed file: format=csv or xlsx, plus the list's filters
export const GET = withSession("GET /api/transactions/export", async ({ request, session }) => {
  const q = parseQuery(request, ExportQuery);
  const filters: TransactionFilter = { ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
  // Page 1 first, before any byte is sent: a missing scope or an unreachable upstream is still a clear JSON error.
  const firstPage = await fleetApi().listTransactions(session.credentials, { ...filters, page: 1, limit: TRANSACTIONS_PAGE_MAX }, { priority: "bulk" });
  const meta = { filters, generatedAt: new Date(now()), customer: { name: session.customerName ?? "", code: session.customerCode }, expectedRows: firstPage.total };
  const progress = q.exportId ? trackExport(session.sid, q.exportId, firstPage.total) : undefined;

  // Stops the upstream walk when the browser goes away (the stream's cancel does too).
  const stop = new AbortController();
  request.signal.addEventListener("abort", () => { stop.abort(); }, { once: true });
  const walk = fleetApi().iterateTransactions(session.credentials, filters, { firstPage, signal: stop.signal, priority: "bulk" });
  async function* tracked(): AsyncGenerator<Transaction> {
    let finished = false;
    try {
      yield* walk;
      finished = true;
      progress?.finish("done");
    } catch (error) {
      progress?.finish(stop.signal.aborted ? "cancelled" : "failed", stop.signal.aborted ? null : "The Fleet Fuel API stopped answering during the export.");
      throw error;
    } finally {
      if (!finished) progress?.finish("cancelled");
    }
  }
  const body = exportTransactions(q.format, tracked(), meta, { onRow: (n) => progress?.row(n), signal: stop.signal });
  return new Response(body, {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[q.format],
      "Content-Disposition": contentDisposition(exportFilename(q.format, meta)),
      "X-Export-Total": String(firstPage.total),
      "Cache-Control": "no-store",
    },
  });
});
