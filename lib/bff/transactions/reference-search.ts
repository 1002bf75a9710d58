import "server-only";

import {
  credentialKey,
  type Credentials,
  type FleetApiClient,
  type Priority,
  TRANSACTIONS_PAGE_MAX,
} from "@/lib/fleet-api";
import type { Page, Transaction, TransactionFilter } from "@/lib/model";

import { cache, cacheKey } from "../platform/cache";
import { getConfig } from "../platform/config";
import { fleetApi } from "../platform/upstream";

/**
 * Search by transaction reference (`transaction_id`), which the upstream's `search` does not match (it matches
 * station name, driver name and card last four only).
 *
 * A term "looks like a reference" when it is 1–4 letters then 6–16 digits — the sandbox's `FF0001935666` (seeded)
 * and `FL…` (added live), the usual shape of a card processor's reference. No station or driver name, and no card's
 * last four, has that shape, so such a term is looked up by reference first; when nothing has that reference, the
 * upstream's own search runs as before.
 *
 * The lookup reads pages of the list's other filters (dates, status) at the largest page size and compares
 * references exactly (case-insensitively). Which pages: references are numbered as transactions arrive, so along the
 * newest-first list their numbers fall. The lookup bisects the pages on that order — page 1, then the middle of
 * what is left — so it reads about 1 + log2(pages) pages: 8 of the 125 pages of 25,000 transactions, against up to
 * 125 for a walk. The order is checked on every page read (the references' numbers must not rise along a page, and
 * a page must hold some), and when a page contradicts it the lookup walks every page instead, so the answer stays
 * exact whatever the upstream's numbering; that walk costs one request per 200 transactions of the filtered set.
 * A reference names one transaction, so the lookup stops at the first page that has it.
 */

const REFERENCE = /^([A-Za-z]{1,4})(\d{6,16})$/;

export function isReferenceLike(term: string): boolean {
  return REFERENCE.test(term);
}

/** The running number of a reference of our shape (any prefix), or null for a reference of another shape. */
function referenceNumber(reference: string): bigint | null {
  const match = REFERENCE.exec(reference);
  return match?.[2] === undefined ? null : BigInt(match[2]);
}

type Direction = "newer" | "older" | "absent" | "unordered";

/**
 * Where the reference numbered `target` lies relative to a page, if references fall along the list: on an earlier
 * page (newer), a later one (older), nowhere (between this page's first and last but not on it), or unknown.
 */
function locate(items: readonly Transaction[], target: bigint): Direction {
  const numbers = items.map((t) => referenceNumber(t.reference)).filter((n): n is bigint => n !== null);
  const newest = numbers[0];
  const oldest = numbers.at(-1);
  if (newest === undefined || oldest === undefined) return "unordered";
  for (let i = 1; i < numbers.length; i++) if ((numbers[i] ?? 0n) > (numbers[i - 1] ?? 0n)) return "unordered";
  if (target > newest) return "newer";
  if (target < oldest) return "older";
  return "absent";
}

export interface ReferenceLookup {
  matches: Transaction[];
  /** How it was found: bisecting the pages on the references' order, or walking every page. */
  method: "bisect" | "walk";
  pagesRead: number;
}

/** The list's other filters: a reference is looked for among the transactions they select. */
export function withoutSearch(filter: TransactionFilter): Omit<TransactionFilter, "search"> {
  return {
    ...(filter.from === undefined ? {} : { from: filter.from }),
    ...(filter.to === undefined ? {} : { to: filter.to }),
    ...(filter.status === undefined ? {} : { status: filter.status }),
  };
}

/** The transactions of `filter` (its search ignored) whose reference is `term`. See the module comment for the cost. */
export async function findByReference(
  client: FleetApiClient,
  credentials: Credentials,
  filter: Omit<TransactionFilter, "search">,
  term: string,
  options: { signal?: AbortSignal; priority?: Priority } = {},
): Promise<ReferenceLookup> {
  const wanted = term.toUpperCase();
  const target = referenceNumber(term);
  const rest = withoutSearch(filter);
  const base = { ...rest, limit: TRANSACTIONS_PAGE_MAX };
  const callOptions = {
    priority: options.priority ?? "interactive",
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  } as const;
  const read = (page: number): Promise<Page<Transaction>> =>
    client.listTransactions(credentials, { ...base, page }, callOptions);
  const having = (items: readonly Transaction[]) => items.filter((t) => t.reference.toUpperCase() === wanted);

  const first = await read(1);
  let pagesRead = 1;
  const walk = async (): Promise<ReferenceLookup> => {
    const matches: Transaction[] = [];
    // At bulk priority: up to one request per 200 rows must not hold up what other pages of this key wait for.
    for await (const t of client.iterateTransactions(credentials, rest, {
      ...callOptions,
      priority: "bulk",
      firstPage: first,
      pageSize: TRANSACTIONS_PAGE_MAX,
      onProgress: (p) => (pagesRead = p.pagesDone),
    })) {
      if (t.reference.toUpperCase() === wanted) matches.push(t);
    }
    return { matches, method: "walk", pagesRead };
  };

  const onFirst = having(first.items);
  if (onFirst.length > 0) return { matches: onFirst, method: "bisect", pagesRead };
  if (target === null) return walk();
  let direction = locate(first.items, target);
  if (direction === "unordered") return first.pages <= 1 ? { matches: [], method: "bisect", pagesRead } : walk();
  if (direction !== "older") return { matches: [], method: "bisect", pagesRead };
  let low = 2;
  let high = first.pages;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const page = await read(middle);
    pagesRead++;
    const found = having(page.items);
    if (found.length > 0) return { matches: found, method: "bisect", pagesRead };
    direction = locate(page.items, target);
    if (direction === "unordered") return walk();
    if (direction === "absent") break;
    if (direction === "newer") high = middle - 1;
    else low = middle + 1;
  }
  return { matches: [], method: "bisect", pagesRead };
}

/** `findByReference` for a session's key, cached like a page of the list (the list, its totals and the export share it). */
export function findByReferenceCached(
  credentials: Credentials,
  filter: Omit<TransactionFilter, "search">,
  term: string,
  signal?: AbortSignal,
): Promise<ReferenceLookup> {
  const { from, to, status } = filter;
  const entryKey = cacheKey(credentialKey(credentials), "reference", { from, to, status, term: term.toUpperCase() });
  return cache().get(
    entryKey,
    getConfig().cacheTtlMs.transactions,
    (shared) => findByReference(fleetApi(), credentials, filter, term, { signal: shared }),
    signal,
  );
}
