import "server-only";

import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFilename,
  type ExportMeta,
  exportTransactions,
} from "@/lib/bff/files";
import type { ExportNarrowing } from "@/lib/format/file-names";
import type { TransactionFilter } from "@/lib/model";
import { MIRROR_FILTER_PARAMS } from "@/lib/model/mirror-replies";

import { trackExport } from "../files/export-progress";
import { ExportRun, guardedBody, trackedRows } from "../files/export-run";
import { sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { chooseSource } from "./choose-source";
import { instantRangeOf, mirrorOnlyAsked, type ServeQuery, sortOf } from "./mirror-filter";
import { dateCoverageOf, ExportQuery } from "./params";
import type { ExportRows } from "./source";

/**
 * GET /api/transactions/export — the whole filtered set as a streamed file: format=csv or xlsx, plus the list's
 * filters (the mirror-only ones and the sort too). From the customer's mirror when it covers the range, and then the
 * file says "data as of" the last head sync (lib/bff/files); else the upstream walk. A slot first (429 beyond 3 running per session, 5 per key), then page 1 before any byte is sent (a missing
 * scope or an unreachable upstream is still a clear JSON error), then the file, streamed as the walk goes.
 */
export const exportTransactionsFile = sessionOperation({
  route: "GET /api/transactions/export",
  input: { query: ExportQuery },
  csrf: "same-site",
  reads: "transactions",
  // The export's own limit (exportLimit: 3 per session, 5 per key) holds it for the whole download.
  readSlot: "exempt",
  priority: "bulk",
  run: async (ctx, q): Promise<Response> => {
    // What the person chose (days of `tz`) names and describes the file; the upstream gets those days as instants.
    const filters: TransactionFilter = {
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.search ? { search: q.search } : {}),
    };
    // From the mirror when it covers the range (the same rows, read locally); mirror-only filters need it.
    const from = await chooseSource(ctx, { fromMs: instantRangeOf(q).fromMs, mirrorOnly: mirrorOnlyAsked(q) });
    const run = new ExportRun(ctx);
    let source: ExportRows;
    try {
      source = await from.exportRows(q, run.stop.signal);
    } catch (error) {
      run.end(run.failure);
      throw error;
    }
    run.expectedRows = source.expectedRows;
    const meta: ExportMeta = {
      filters,
      dateFilter: dateCoverageOf(q),
      narrowing: narrowingOf(q),
      sort: sortOf(q),
      ...(q.dates === "local" ? { dateBasis: "local" as const } : {}),
      generatedAt: new Date(now()),
      customer: { name: ctx.session.customerName ?? "", code: ctx.session.customerCode },
      expectedRows: source.expectedRows,
      dataAsOf: source.dataAsOf,
    };
    // Registered before the Response is returned: the page polls only once it has the response, so no poll is too early.
    const progress = q.exportId ? trackExport(ctx.session.sid, ctx.key, q.exportId, source.expectedRows) : undefined;
    const file = exportTransactions(q.format, trackedRows(run, source.rows, source.isInside, progress), meta, {
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
        "X-Export-Total": String(source.expectedRows),
        ...(source.dataAsOf === null ? {} : { "X-Data-As-Of": source.dataAsOf.toISOString() }),
        "Cache-Control": "no-store",
      },
    });
  },
});

/** The mirror-only filters as asked, for the file's name and About sheet (absent ones left out). */
function narrowingOf(q: ServeQuery): ExportNarrowing {
  const asked: ExportNarrowing = {};
  for (const name of NARROWING_PARAMS) {
    const value = q[name];
    if (value !== undefined) asked[name] = value;
  }
  return asked;
}

/** The mirror-only filters (one list, lib/model) but the date basis, which the file states on its own. */
const NARROWING_PARAMS = MIRROR_FILTER_PARAMS.filter(
  (name): name is Exclude<(typeof MIRROR_FILTER_PARAMS)[number], "dates"> => name !== "dates",
) satisfies readonly (keyof ExportNarrowing)[];
