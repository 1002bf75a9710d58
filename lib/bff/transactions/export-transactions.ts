import "server-only";

import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFilename,
  type ExportMeta,
  exportTransactions,
} from "@/lib/bff/files";
import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { ExportNarrowing } from "@/lib/format/file-names";
import { countsByStatus, exportRows } from "@/lib/mirror";
import type { DataOrigin, Page, Transaction, TransactionFilter } from "@/lib/model";
import { MIRROR_FILTER_PARAMS } from "@/lib/model/mirror-replies";

import { trackExport } from "../files/export-progress";
import { ExportRun, guardedBody, trackedRows } from "../files/export-run";
import { type OperationContext, sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import type { MirrorAccess } from "../platform/mirror-access";
import { fleetApi } from "../platform/upstream";
import { mirrorCovering, mirrorNeeded } from "./mirror-coverage";
import { instantRangeOf, mirrorFilterOf, mirrorOnlyAsked, type ServeQuery, sortOf } from "./mirror-filter";
import { dateCoverageOf, ExportQuery, upstreamFilterOf } from "./params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "./reference-search";
import { isInsideInstants, needsTrim, trimOf } from "./zoned-transactions";

interface FirstPage {
  page: Page<Transaction>;
  expectedRows: number;
}

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
    const { fromMs } = instantRangeOf(q);
    const serving = await mirrorCovering(ctx, fromMs);
    const asked = mirrorOnlyAsked(q);
    if (serving.mirror === null && asked.length > 0) throw mirrorNeeded(serving, asked);
    const run = new ExportRun(ctx);
    let source: Source;
    try {
      source =
        serving.mirror === null
          ? await upstreamSource(ctx, run, q)
          : await mirrorSource(serving.mirror, serving.origin, q);
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

/** Where an export's rows come from: the rows (kept to `isInside`), how many to expect, and the mirror's sync time. */
interface Source {
  rows: AsyncIterable<Transaction>;
  isInside: (t: Transaction) => boolean;
  expectedRows: number;
  dataAsOf: Date | null;
}

/** The mirror's rows of the filter, in the list's order (any sort), read by keyset (lib/mirror/export-rows). */
async function mirrorSource(access: MirrorAccess, origin: DataOrigin, q: ServeQuery): Promise<Source> {
  const filter = await mirrorFilterOf(access, q);
  const counts = await countsByStatus(access.store, access.customerId, filter);
  return {
    rows: exportRows(access.store, access.customerId, filter, sortOf(q)),
    isInside: () => true,
    expectedRows: Object.values(counts).reduce((sum, n) => sum + n, 0),
    dataAsOf: origin.asOf === null ? null : new Date(origin.asOf),
  };
}

/** The upstream walk of the filter: page 1 first (a missing scope is still a clear JSON error), then the rest. */
async function upstreamSource(ctx: OperationContext, run: ExportRun, q: ServeQuery): Promise<Source> {
  const upstreamFilter = upstreamFilterOf(q);
  // A dates-only upstream is sent the UTC days that cover the zone's days: the walk keeps the instants' rows only,
  // and the rows to expect are the trimmed count (the list's, lib/bff/transactions/zoned-transactions).
  const isTrimmed = fleetApi().transactionDateStyle() === "date" && needsTrim(upstreamFilter);
  const isInside = isTrimmed ? isInsideInstants(upstreamFilter) : () => true;
  const first = await firstPage(ctx, run.stop.signal, upstreamFilter, isTrimmed, isInside);
  const rows = fleetApi().iterateTransactions(ctx.session.credentials, upstreamFilter, {
    firstPage: first.page,
    signal: run.stop.signal,
    priority: ctx.priority,
  });
  return { rows, isInside, expectedRows: first.expectedRows, dataAsOf: null };
}

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
