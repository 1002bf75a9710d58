"use client";

import { useQuery } from "@tanstack/react-query";
import {
  getCoreRowModel,
  type PaginationState,
  type SortingState,
  type Updater,
  useReactTable,
} from "@tanstack/react-table";
import { useEffect, useState } from "react";

import type { Transaction } from "@/lib/model";
import { LIST_SORT_COLUMNS, type ListSortColumn } from "@/lib/model/mirror-replies";
import type { ListSort, TransactionFilterParams } from "@/lib/queries/transaction-filters";
import { transactionsQueryOptions } from "@/lib/queries/transactions";

import { transactionColumns } from "./columns";
import { type ListState, type PageSize, resolveRange } from "./list-state";
import { pageCountOf } from "./pagination";
import { useColumnVisibility } from "./use-column-visibility";
import type { useListState } from "./use-list-state";

type ListControls = ReturnType<typeof useListState>;

const NO_ROWS: Transaction[] = [];

/**
 * The page of transactions the URL asks for, with what the page around the table needs: the filters of the set (for
 * the totals bar) and the set's size once known. A page past the end (an old link, `?page=999999`, rows gone since)
 * is replaced by the last page.
 */
export function useTransactionsPage(list: ListControls) {
  const { state, setPage } = list;
  const { from, to } = resolveRange(state);
  // The zone matters to the request only with dates: without, another zone changes how times read, not which rows.
  const tz = from === null && to === null ? "" : state.tz;
  const filters: TransactionFilterParams = {
    from,
    to,
    tz,
    status: state.status,
    search: state.search,
    mirror: state.mirror,
  };
  // Not asked for until the zone is known (see useListState): a list asked for in UTC while the page hydrates would
  // be asked for again in the browser's zone a moment later.
  const query = useQuery({
    ...transactionsQueryOptions({ ...filters, page: state.page, limit: state.pageSize, sort: state.sort }),
    enabled: list.zoneKnown,
  });
  const listTotal = useSettledTotal(query, JSON.stringify(filters));

  const data = query.data;
  const lastPage =
    data === undefined || query.isPlaceholderData || data.total === 0 ? null : pageCountOf(data.total, data.limit);
  useEffect(() => {
    if (lastPage !== null && state.page > lastPage) setPage(lastPage, "replace");
  }, [lastPage, state.page, setPage]);
  return { query, filters, listTotal };
}

/**
 * The set's size for the totals bar: another page of the same filters is the same set, so the total of the rows on
 * screen stays while the next page loads (it goes only when the filters change).
 */
function useSettledTotal(
  query: { data?: { total: number } | undefined; isPlaceholderData: boolean },
  filtersKey: string,
): number | null {
  const [settled, setSettled] = useState<{ filtersKey: string; total: number } | null>(null);
  if (
    query.data !== undefined &&
    !query.isPlaceholderData &&
    (settled?.filtersKey !== filtersKey || settled.total !== query.data.total)
  ) {
    setSettled({ filtersKey, total: query.data.total });
  }
  return settled?.filtersKey === filtersKey ? settled.total : null;
}

/** The order the list is in by default: newest first. */
const DEFAULT_SORTING: SortingState = [{ id: "at", desc: true }];

function sortingOf(sort: ListSort | null): SortingState {
  return sort === null ? DEFAULT_SORTING : [{ id: sort.column, desc: sort.dir === "desc" }];
}

/** A header's new order as the URL keeps it: null for the default (newest first), or a column the BFF sorts by. */
function sortOf(sorting: SortingState): ListSort | null {
  const first = sorting[0];
  if (first === undefined || !(LIST_SORT_COLUMNS as readonly string[]).includes(first.id)) return null;
  const sort: ListSort = { column: first.id as ListSortColumn, dir: first.desc ? "desc" : "asc" };
  return sort.column === "at" && sort.dir === "desc" ? null : sort;
}

/**
 * The TanStack table of one page: server-side pagination and sorting driven by the URL, column visibility
 * remembered. `sortable`: the rows come from the local copy, which sorts by any column (the provider's list only
 * newest first), so the headers become sort buttons (aria-sort, keyboard) only then.
 */
export function useTransactionTable(
  data: { items: Transaction[]; total: number } | undefined,
  state: ListState,
  list: ListControls,
  sortable: boolean,
) {
  const [columnVisibility, setColumnVisibility] = useColumnVisibility();
  const pagination: PaginationState = { pageIndex: state.page - 1, pageSize: state.pageSize };
  const sorting = sortingOf(state.sort);
  // TanStack Table is not compatible with the React Compiler's memoization; this app does not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable({
    data: data?.items ?? NO_ROWS,
    columns: transactionColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
    rowCount: data?.total ?? 0,
    manualSorting: sortable,
    enableSorting: sortable,
    // One column at a time, ascending or descending (no third "unsorted" click: the list always has an order).
    enableMultiSort: false,
    enableSortingRemoval: false,
    // A first click sorts ascending (A to Z, smallest first) whatever the column holds; a second one descending.
    sortDescFirst: false,
    state: { pagination, columnVisibility, sorting },
    meta: { timeZone: state.tz },
    onSortingChange: (updater: Updater<SortingState>) => {
      list.setSort(sortOf(typeof updater === "function" ? updater(sorting) : updater));
    },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === "function" ? updater(pagination) : updater;
      if (next.pageSize !== pagination.pageSize) list.setPageSize(next.pageSize as PageSize);
      else list.setPage(next.pageIndex + 1);
    },
    onColumnVisibilityChange: (updater) => {
      setColumnVisibility(typeof updater === "function" ? updater(columnVisibility) : updater);
    },
  });
}
