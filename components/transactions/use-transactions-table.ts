"use client";

import { useQuery } from "@tanstack/react-query";
import { getCoreRowModel, type PaginationState, type Updater, useReactTable } from "@tanstack/react-table";
import { useEffect, useState } from "react";

import type { Transaction } from "@/lib/model";
import { transactionsQueryOptions, type TransactionTotalsParams } from "@/lib/queries/transactions";

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
  const filters: TransactionTotalsParams = { from, to, tz, status: state.status, search: state.search };
  // Not asked for until the zone is known (see useListState): a list asked for in UTC while the page hydrates would
  // be asked for again in the browser's zone a moment later.
  const query = useQuery({
    ...transactionsQueryOptions({ ...filters, page: state.page, limit: state.pageSize }),
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

/** The TanStack table of one page: server-side pagination driven by the URL, column visibility remembered. */
export function useTransactionTable(
  data: { items: Transaction[]; total: number } | undefined,
  state: ListState,
  list: ListControls,
) {
  const [columnVisibility, setColumnVisibility] = useColumnVisibility();
  const pagination: PaginationState = { pageIndex: state.page - 1, pageSize: state.pageSize };
  // TanStack Table is not compatible with the React Compiler's memoization; this app does not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable({
    data: data?.items ?? NO_ROWS,
    columns: transactionColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
    rowCount: data?.total ?? 0,
    state: { pagination, columnVisibility },
    meta: { timeZone: state.tz },
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
