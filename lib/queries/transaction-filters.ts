import type { TransactionStatus } from "@/lib/model";
import { type ListSortColumn, MIRROR_FILTER_PARAMS } from "@/lib/model/mirror-replies";

/**
 * The list's filters as `GET /api/transactions`, its totals and its export take them: one writer of the query
 * parameters for all three, so the export holds exactly the rows the table shows.
 */

/** The filters only the local copy (the mirror) answers; null when not set. Decimals as typed ("12.5"). */
export interface MirrorFilterValues {
  driver: string | null;
  card: string | null;
  truck: string | null;
  station: string | null;
  state: string | null;
  product: string | null;
  amountMin: string | null;
  amountMax: string | null;
  gallonsMin: string | null;
  gallonsMax: string | null;
  /** "local": the dates are each purchase's own local date (the insight pages' basis); null: days of the zone. */
  dates: string | null;
}

export const MIRROR_FILTER_NAMES = MIRROR_FILTER_PARAMS satisfies readonly (keyof MirrorFilterValues)[];

export const NO_MIRROR_FILTERS: MirrorFilterValues = {
  driver: null,
  card: null,
  truck: null,
  station: null,
  state: null,
  product: null,
  amountMin: null,
  amountMax: null,
  gallonsMin: null,
  gallonsMax: null,
  dates: null,
};

/** A sort other than the default (newest first, `at` descending); only the mirror sorts. */
export interface ListSort {
  column: ListSortColumn;
  dir: "asc" | "desc";
}

/** Dates are days of `tz`, both ends inclusive; `tz` is sent only with dates (it changes no rows otherwise). */
export interface TransactionFilterParams {
  from: string | null;
  to: string | null;
  tz: string;
  status: TransactionStatus | null;
  search: string;
  mirror: MirrorFilterValues;
}

export function hasMirrorFilters(mirror: MirrorFilterValues): boolean {
  return MIRROR_FILTER_NAMES.some((name) => mirror[name] !== null);
}

/** Adds the filters (and a sort, when one is chosen) to `query`, leaving out what is not set. */
export function writeTransactionFilters(
  query: URLSearchParams,
  filters: TransactionFilterParams,
  sort: ListSort | null = null,
): URLSearchParams {
  if (filters.from !== null) query.set("from", filters.from);
  if (filters.to !== null) query.set("to", filters.to);
  if (filters.from !== null || filters.to !== null) query.set("tz", filters.tz);
  if (filters.status !== null) query.set("status", filters.status);
  if (filters.search !== "") query.set("search", filters.search);
  return writeMirrorFilters(query, filters.mirror, sort);
}

/** Adds the filters only the local copy answers, and a chosen sort (the page's URL writes them the same way). */
export function writeMirrorFilters(
  query: URLSearchParams,
  mirror: MirrorFilterValues,
  sort: ListSort | null,
): URLSearchParams {
  for (const name of MIRROR_FILTER_NAMES) {
    const value = mirror[name];
    if (value !== null) query.set(name, value);
  }
  if (sort !== null) {
    query.set("sort", sort.column);
    query.set("dir", sort.dir);
  }
  return query;
}
