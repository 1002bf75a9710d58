import "server-only";

import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { DataOrigin, Transaction, TransactionFilter } from "@/lib/model";
import { summaryRangeProblem } from "@/lib/model/summary-range";

import { BffError } from "../http/errors";
import { cached, type CachePolicy, type OperationContext } from "../http/operation";
import { getConfig } from "../platform/config";
import { summaryLimit } from "../platform/running-limit";
import { fleetApi } from "../platform/upstream";
import { listTotals } from "./list-totals";
import { upstreamFilterOf } from "./params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "./reference-search";
import type { ExportRows, ListPage, TransactionSource } from "./source";
import { summarize } from "./summary";
import { isInsideInstants, listTransactionsExactly, needsTrim, trimOf } from "./zoned-transactions";

/** The upstream's answers are cached per customer (the list's pages shared with the other instances, in Redis). */
export const LIST_CACHE: CachePolicy = {
  name: "transactions",
  ttlMs: () => getConfig().cacheTtlMs.transactions,
  shared: true,
};
export const TOTALS_CACHE: CachePolicy = { name: "totals", ttlMs: () => getConfig().cacheTtlMs.summary };
export const SUMMARY_CACHE: CachePolicy = { name: "summary", ttlMs: () => getConfig().cacheTtlMs.summary };

type ListQuery = TransactionFilter & { page: number; limit: number };

/**
 * The upstream as a transaction source: a zone's days exact on both upstream shapes (instants as datetimes, or the
 * covering UTC days trimmed: ./zoned-transactions.ts), a search shaped like a reference looked up by reference first
 * (./reference-search.ts), the totals and the summary as walks (bounded, cached, single flight). The mirror-only
 * filters never reach it: chooseSource refuses them first.
 */
export function upstreamSource(ctx: OperationContext, origin: DataOrigin): TransactionSource {
  return {
    kind: "upstream",
    origin,
    list: async (q, paging) => {
      const query: ListQuery = { ...paging, ...upstreamFilterOf(q) };
      const byReference = await pageByReference(ctx, query);
      if (byReference !== null) return byReference;
      return cached(ctx, LIST_CACHE, query, (signal) =>
        listTransactionsExactly(ctx.session.credentials, query, { signal, priority: ctx.priority }),
      );
    },
    // The zone's days as instants; a dates-only upstream is walked over the covering days and trimmed (list-totals).
    totals: (q) => {
      const filter = upstreamFilterOf(q);
      return cached(ctx, TOTALS_CACHE, filter, (signal) => listTotals(ctx.session.credentials, filter, signal));
    },
    summary: async ({ from, to }) => {
      const problem = summaryRangeProblem(from, to);
      if (problem !== null) throw new BffError("bad_request", `${problem}.`);
      // One walk per range however many tabs ask (single flight), holding a slot (2 per session, 4 per key, else 429):
      // one user cannot queue walks without end. It stops when the last request waiting for it goes away. No previous
      // period from the upstream: it would double the walk.
      const summary = await cached(ctx, SUMMARY_CACHE, { from, to }, (signal) =>
        summaryLimit().run(ctx.session.sid, ctx.key, () =>
          summarize(fleetApi(), ctx.session.credentials, { from, to }, signal),
        ),
      );
      // The walk reads UTC days: its rankings say so (lib/model/metrics "spend.utc-day"); no comparison without a copy.
      return { ...summary, previous: null, comparison: null, rankingMetric: "spend.utc-day", origin };
    },
    facets: () => Promise.resolve({ drivers: [], cards: [], trucks: [], stations: [], states: [], products: [] }),
    exportRows: (q, signal) => upstreamRows(ctx, upstreamFilterOf(q), signal),
  };
}

/**
 * The upstream's search does not match references: a term shaped like one is looked up by reference first (a
 * dates-only upstream answers the covering UTC days, so the matches are kept to the zone's instants). Null when the
 * term is no reference or nothing matched (the upstream's own search answers then).
 */
async function pageByReference(ctx: OperationContext, query: ListQuery): Promise<ListPage | null> {
  if (query.search === undefined || !isReferenceLike(query.search)) return null;
  const { matches } = await findByReferenceCached(
    ctx.session.credentials,
    withoutSearch(query),
    query.search,
    ctx.signal,
  );
  const inside = matches.filter(isInsideInstants(query));
  if (inside.length === 0) return null;
  const start = (query.page - 1) * query.limit;
  return {
    page: query.page,
    limit: query.limit,
    total: inside.length,
    pages: Math.ceil(inside.length / query.limit),
    items: inside.slice(start, start + query.limit),
  };
}

/** The upstream walk of the filter: page 1 first (a missing scope is still a clear JSON error), then the rest. */
async function upstreamRows(
  ctx: OperationContext,
  filter: TransactionFilter,
  signal: AbortSignal,
): Promise<ExportRows> {
  // A dates-only upstream is sent the UTC days that cover the zone's days: the walk keeps the instants' rows only,
  // and the rows to expect are the trimmed count (the list's, ./zoned-transactions.ts).
  const isTrimmed = fleetApi().transactionDateStyle() === "date" && needsTrim(filter);
  const isInside = isTrimmed ? isInsideInstants(filter) : () => true;
  const first = await firstPage(ctx, signal, filter, isTrimmed, isInside);
  const rows = fleetApi().iterateTransactions(ctx.session.credentials, filter, {
    firstPage: first.page,
    signal,
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
) {
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
