import "server-only";

import { z } from "zod";

import { contentDisposition, EXPORT_CONTENT_TYPES } from "@/lib/bff/files";
import { ExportRun as RowsRun } from "@/lib/bff/files/run";
import { toWebStream } from "@/lib/bff/files/web-stream";
import { FleetApiError } from "@/lib/fleet-api";
import { jurisdictionFilename } from "@/lib/format/file-names";
import { exportRows, type MirrorStore } from "@/lib/mirror";
import type { Station, Transaction } from "@/lib/model";
import { addDays, type LocalDateRange } from "@/lib/model/insights";

import { ExportRun, guardedBody } from "../files/export-run";
import { type OperationContext, sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { getCatalog } from "../stations";
import {
  aboutText,
  type JurisdictionFileFacts,
  produceJurisdictionCsv,
  produceJurisdictionXlsx,
} from "./jurisdiction-files";
import { JurisdictionQuery, jurisdictionReply } from "./jurisdiction-report";
import { insightMirror } from "./serving";

const ROUTE = "GET /api/reports/jurisdictions/export";

export const JurisdictionExportQuery = JurisdictionQuery.extend({
  format: z.enum(["csv", "xlsx", "txt"], {
    error: "format must be csv, xlsx or txt (the About text: what the files hold, their basis and data-as-of time)",
  }),
}).strict();

const NO_LOCATIONS =
  "Blank: this key lacks the locations scope, so the station catalog (which holds the addresses) cannot be read.";
const NO_CATALOG = "Blank: the station catalog could not be read from the Fleet Fuel API just now; try again later.";

/**
 * Station addresses from the BFF's catalog (one cached walk per customer, never a call per row); without the
 * locations scope, or when the upstream fails, the addresses stay blank and the file says why.
 */
async function addresses(ctx: OperationContext): Promise<{ stations: Map<string, Station>; note: string | null }> {
  try {
    const all = await getCatalog(ctx.session.credentials, ctx.key, await ctx.mirror());
    return { stations: new Map(all.map((s) => [s.id, s])), note: null };
  } catch (error) {
    if (error instanceof FleetApiError && error.code === "scope_denied")
      return { stations: new Map(), note: NO_LOCATIONS };
    if (error instanceof FleetApiError) return { stations: new Map(), note: NO_CATALOG };
    throw error;
  }
}

/**
 * The report's file as a stream: the summary from `facts.reply`, the receipt lines (XLSX) from `rows`, pull-based
 * (a slow reader slows the mirror's keyset read), stopped by `signal`. Apart from the route for the bench.
 */
export function jurisdictionFile(
  format: "csv" | "xlsx",
  rows: AsyncIterable<Transaction>,
  facts: JurisdictionFileFacts,
  options: { onRow?: (rowsDone: number) => void; signal?: AbortSignal } = {},
): ReadableStream<Uint8Array> {
  const run = new RowsRun(rows, options.onRow);
  const produce = () => (format === "csv" ? produceJurisdictionCsv(run, facts) : produceJurisdictionXlsx(run, facts));
  return toWebStream(run, produce, options.signal);
}

/**
 * The completed purchases of a range of local dates, one local date after the other (each in time order), read by
 * keyset one day at a time: the day's at_ms window bounds every batch's index scan, where one window over the whole
 * quarter made each batch scan from the quarter's start (a second lower bound on at_ms the stores do not combine).
 */
export async function* receiptsOf(store: MirrorStore, customerId: string, range: LocalDateRange) {
  for (let day = range.from; day <= range.to; day = addDays(day, 1))
    yield* exportRows(store, customerId, { localDays: { from: day, to: day }, status: "completed" }, AT_ASC);
}

const AT_ASC = { column: "at", direction: "asc" } as const;

const customerLabel = (c: { name: string; code: string | null }) => (c.name === "" ? (c.code ?? "") : c.name);

async function* none(): AsyncGenerator<Transaction> {
  // The CSV holds the summary alone: no receipt rows.
}

/**
 * GET /api/reports/jurisdictions/export — the report as CSV (its summary rows only), XLSX (Summary, Detail with every
 * completed purchase behind it, About) or txt (the About alone). The name says range, basis and data-as-of. CSV and
 * XLSX take an export slot like the transaction export (429 beyond the limit).
 */
export const exportJurisdictionReport = sessionOperation({
  route: ROUTE,
  input: { query: JurisdictionExportQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  run: async (ctx, q): Promise<Response> => {
    const { format, ...range } = q;
    const reply = await jurisdictionReply(ctx, range);
    const generatedAt = new Date(now());
    const customer = { name: ctx.session.customerName ?? "", code: ctx.session.customerCode };
    const name = jurisdictionFilename(format, {
      customer,
      ...reply.periods.current,
      dataAsOf: reply.coverage.asOf === null ? null : new Date(reply.coverage.asOf),
      generatedAt,
    });
    const headers = {
      "Content-Disposition": contentDisposition(name),
      ...(reply.coverage.asOf === null ? {} : { "X-Data-As-Of": reply.coverage.asOf }),
      "Cache-Control": "no-store",
    };
    if (format === "txt") {
      // The About alone (what the CSV no longer carries after its rows): no rows, so no export slot.
      const text = aboutText({
        reply,
        customer: customerLabel(customer),
        generatedAt,
        stations: new Map(),
        addressNote: null,
      });
      return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
    }
    const run = new ExportRun(ctx, ROUTE);
    run.expectedRows = format === "csv" ? 0 : reply.report.totals.purchases;
    let catalog: Awaited<ReturnType<typeof addresses>> = { stations: new Map(), note: null };
    try {
      if (format === "xlsx") catalog = await addresses(ctx);
    } catch (error) {
      run.end(run.failure);
      throw error;
    }
    // The receipts of exactly the days the summary covers (what the reply's coverage says), not a later sync's.
    const { mirror } = await insightMirror(ctx, reply.periods.current);
    const query = reply.coverage.covered;
    const rows = format === "csv" || query === null ? none() : receiptsOf(mirror.store, mirror.customerId, query);
    const facts = {
      reply,
      customer: customerLabel(customer),
      generatedAt,
      stations: catalog.stations,
      addressNote: catalog.note,
    };
    const file = jurisdictionFile(format, rows, facts, {
      onRow: (n) => {
        run.rows = n;
      },
      signal: run.stop.signal,
    });
    return new Response(guardedBody(run, file, getConfig().exportIdleMs, undefined), {
      headers: { "Content-Type": EXPORT_CONTENT_TYPES[format], ...headers },
    });
  },
});
