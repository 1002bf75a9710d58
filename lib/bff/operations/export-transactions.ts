import "server-only";

import { contentDisposition, EXPORT_CONTENT_TYPES, exportFilename, exportTransactions } from "@/lib/bff/export";
import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { Page, Transaction, TransactionFilter } from "@/lib/model";

import { now } from "../clock";
import { getConfig } from "../config";
import { trackExport } from "../export-progress";
import { type OperationContext, sessionOperation } from "../operation";
import { dateCoverageOf, ExportQuery, upstreamFilterOf } from "../params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "../reference-search";
import { fleetApi } from "../upstream";
import { isInsideInstants, needsTrim, trimOf } from "../zoned-transactions";
import { ExportRun, guardedBody, trackedRows } from "./export-run";

interface FirstPage {
  page: Page<Transaction>;
  expectedRows: number;
}

/**
 * GET /api/transactions/export — the whole filtered set as a streamed file: format=csv or xlsx, plus the list's
 * filters. A slot first (429 beyond 3 running per session, 5 per key), then page 1 before any byte is sent (a missing
 * scope or an unreachable upstream is still a clear JSON error), then the file, streamed as the walk goes.
 */
export const exportTransactionsFile = sessionOperation({
  route: "GET /api/transactions/export",
  input: { query: ExportQuery },
  csrf: "same-site",
  priority: "bulk",
  run: async (ctx, q): Promise<Response> => {
    // What the person chose (days of `tz`) names and describes the file; the upstream gets those days as instants.
    const filters: TransactionFilter = {
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.search ? { search: q.search } : {}),
    };
    const upstreamFilter = upstreamFilterOf(q);
    const run = new ExportRun(ctx);
    // A dates-only upstream is sent the UTC days that cover the zone's days: the walk keeps the instants' rows only,
    // and the rows to expect are the trimmed count (the list's, lib/bff/zoned-transactions).
    const isTrimmed = fleetApi().transactionDateStyle() === "date" && needsTrim(upstreamFilter);
    const isInside = isTrimmed ? isInsideInstants(upstreamFilter) : () => true;
    let first: FirstPage;
    try {
      first = await firstPage(ctx, run.stop.signal, upstreamFilter, isTrimmed, isInside);
    } catch (error) {
      run.end(run.failure);
      throw error;
    }
    run.expectedRows = first.expectedRows;
    const meta = {
      filters,
      dateFilter: dateCoverageOf(q),
      generatedAt: new Date(now()),
      customer: { name: ctx.session.customerName ?? "", code: ctx.session.customerCode },
      expectedRows: first.expectedRows,
    };
    // Registered before the Response is returned: the page polls only once it has the response, so no poll is too early.
    const progress = q.exportId ? trackExport(ctx.session.sid, ctx.key, q.exportId, first.expectedRows) : undefined;
    const walk = fleetApi().iterateTransactions(ctx.session.credentials, upstreamFilter, {
      firstPage: first.page,
      signal: run.stop.signal,
      priority: ctx.priority,
    });
    const file = exportTransactions(q.format, trackedRows(run, walk, isInside, progress), meta, {
      onRow: (n) => {
        run.rows = n;
        progress?.row(n);
      },
      signal: run.stop.signal,
    });
    return new Response(guardedBody(run, file, getConfig().exportIdleMs, progress), {
      headers: {
        "Content-Type": EXPORT_CONTENT_TYPES[q.format],
        "Content-Disposition": contentDisposition(exportFilename(q.format, meta)),
        "X-Export-Total": String(first.expectedRows),
        "Cache-Control": "no-store",
      },
    });
  },
});

/**
 * Page 1 and the rows to expect. A reference search exports what the list shows: the rows the reference lookup found
 * (one page, so the walk asks the upstream for nothing more); the upstream's own search does not match references.
 */
async function firstPage(
  ctx: OperationContext,
  signal: AbortSignal,
  filter: TransactionFilter,
  isTrimmed: boolean,
  isInside: (t: Transaction) => boolean,
): Promise<FirstPage> {
  const byReference =
    filter.search !== undefined && isReferenceLike(filter.search)
      ? (
          await findByReferenceCached(ctx.session.credentials, withoutSearch(filter), filter.search, signal)
        ).matches.filter(isInside)
      : [];
  if (byReference.length > 0)
    return {
      page: { page: 1, limit: TRANSACTIONS_PAGE_MAX, total: byReference.length, pages: 1, items: byReference },
      expectedRows: byReference.length,
    };
  const page = await fleetApi().listTransactions(
    ctx.session.credentials,
    { ...filter, page: 1, limit: TRANSACTIONS_PAGE_MAX },
    { priority: ctx.priority, signal },
  );
  const trim = isTrimmed
    ? await trimOf(ctx.key, ctx.session.credentials, filter, { priority: ctx.priority, signal }, page)
    : null;
  return { page, expectedRows: trim === null ? page.total : Math.max(0, trim.coveringTotal - trim.head - trim.tail) };
}
