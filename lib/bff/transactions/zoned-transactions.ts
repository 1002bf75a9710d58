import "server-only";

import { type CallOptions, credentialKey, type Credentials, TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { Page, Transaction, TransactionFilter } from "@/lib/model";

import { cache, cacheKey } from "../platform/cache";
import { getConfig } from "../platform/config";
import { fleetApi } from "../platform/upstream";

/**
 * A time zone's days, exactly, from an upstream that filters by UTC days only (the primary shape).
 *
 * The BFF asks for the UTC days that cover the zone's days (the client turns the instants into those dates). The
 * list is newest first, so the rows outside the instants asked for are a run at its head (newer than `to`) and a run
 * at its tail (older than `from`); nothing in between is outside. Counting both runs (`measureTrim`: the first and
 * the last page of the covering list, more only when a run fills a whole page) gives the exact total, and page n of
 * the exact list is the covering list shifted by the head's length (one or two upstream pages of the same size).
 * Counts and pages stay exact, unlike trimming each page's rows, which would break both.
 *
 * Where the upstream takes datetimes (the alternative shape), the instants go as they are and nothing is trimmed.
 */

export interface Trim {
  /** Rows at the head of the covering list newer than `to`. */
  head: number;
  /** Rows at the tail older than `from`. */
  tail: number;
  coveringTotal: number;
}

/** Instant bounds that are not whole UTC days: only these need trimming on a dates-only upstream. */
export function needsTrim(filter: TransactionFilter): boolean {
  const isPartial = (value: string | undefined, edge: string) =>
    value !== undefined && value.length > 10 && !value.endsWith(edge);
  return isPartial(filter.from, "T00:00:00.000Z") || isPartial(filter.to, "T23:59:59.999Z");
}

const atMs = (t: Transaction) => Date.parse(t.at);

async function measureTrim(
  credentials: Credentials,
  filter: TransactionFilter,
  options: CallOptions,
  firstPage?: Page<Transaction>,
): Promise<Trim> {
  const fromMs = filter.from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(filter.from);
  const toMs = filter.to === undefined ? Number.POSITIVE_INFINITY : Date.parse(filter.to);
  const fetchPage = (page: number) =>
    fleetApi().listTransactions(credentials, { ...filter, page, limit: TRANSACTIONS_PAGE_MAX }, options);
  const first = firstPage ?? (await fetchPage(1));
  const total = first.total;
  const pages = Math.max(1, Math.ceil(total / TRANSACTIONS_PAGE_MAX));
  let head = 0;
  for (let page = 1, rows = first.items; ;) {
    const newer = rows.findIndex((t) => atMs(t) <= toMs);
    if (newer >= 0) {
      head += newer;
      break;
    }
    head += rows.length;
    page += 1;
    if (rows.length === 0 || page > pages) break;
    rows = (await fetchPage(page)).items;
  }
  let tail = 0;
  if (filter.from !== undefined) {
    for (let page = pages; page >= 1; page -= 1) {
      const rows = page === 1 ? first.items : (await fetchPage(page)).items;
      let older = 0;
      for (let i = rows.length - 1; i >= 0; i -= 1) {
        const row = rows[i];
        if (row === undefined || atMs(row) >= fromMs) break;
        older += 1;
      }
      tail += older;
      if (older < rows.length) break;
    }
  }
  // Rows arriving between the requests could make the runs overlap in a tiny list: never count a row twice.
  return { head: Math.min(head, total), tail: Math.min(tail, Math.max(0, total - head)), coveringTotal: total };
}

const trimKey = (key: string, filter: TransactionFilter) => cacheKey(key, "transactions-trim", filter);

/** The trim of a filter, cached like a page (it costs one or two upstream requests). */
export function trimOf(
  key: string,
  credentials: Credentials,
  filter: TransactionFilter,
  options: CallOptions = {},
  firstPage?: Page<Transaction>,
): Promise<Trim> {
  const { signal, ...rest } = options;
  return cache().get(
    trimKey(key, filter),
    getConfig().cacheTtlMs.transactions,
    (shared) => measureTrim(credentials, filter, { ...rest, signal: shared }, firstPage),
    signal,
  );
}

/** One page of the list for a filter whose bounds may be instants: exact in both upstream shapes. */
export async function listTransactionsExactly(
  credentials: Credentials,
  query: TransactionFilter & { page: number; limit: number },
  options: CallOptions = {},
): Promise<Page<Transaction>> {
  const { page, limit, ...filter } = query;
  const api = fleetApi();
  if (!needsTrim(filter) || api.transactionDateStyle() === "datetime")
    return api.listTransactions(credentials, query, options);
  const key = credentialKey(credentials);
  let trim = cache().peek(trimKey(key, filter)) as Trim | undefined;
  if (trim === undefined) {
    // The first covering page also tells whether the upstream takes datetimes after all (it negotiates on a 400).
    const first = await api.listTransactions(
      credentials,
      { ...filter, page: 1, limit: TRANSACTIONS_PAGE_MAX },
      options,
    );
    if (api.transactionDateStyle() === "datetime") return api.listTransactions(credentials, query, options);
    trim = await trimOf(key, credentials, filter, options, first);
  }
  const total = Math.max(0, trim.coveringTotal - trim.head - trim.tail);
  const start = trim.head + (page - 1) * limit;
  const end = Math.min(start + limit, trim.head + total);
  const envelope = { page, limit, total, pages: Math.ceil(total / limit) };
  if (start >= end) return { ...envelope, items: [] };
  const firstUpstream = Math.floor(start / limit) + 1;
  const lastUpstream = Math.floor((end - 1) / limit) + 1;
  const rows: Transaction[] = [];
  for (let p = firstUpstream; p <= lastUpstream; p += 1)
    rows.push(...(await api.listTransactions(credentials, { ...filter, page: p, limit }, options)).items);
  const skip = start - (firstUpstream - 1) * limit;
  return { ...envelope, items: rows.slice(skip, skip + (end - start)) };
}

/** For walks (the export): whether a row is inside the filter's instants (a dates-only upstream sends the covering days). */
export function isInsideInstants(filter: TransactionFilter): (t: Transaction) => boolean {
  if (!needsTrim(filter)) return () => true;
  const fromMs = filter.from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(filter.from);
  const toMs = filter.to === undefined ? Number.POSITIVE_INFINITY : Date.parse(filter.to);
  return (t) => {
    const at = atMs(t);
    return at >= fromMs && at <= toMs;
  };
}
