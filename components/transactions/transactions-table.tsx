"use client";

import { flexRender, getCoreRowModel, useReactTable, type PaginationState, type Updater } from "@tanstack/react-table";
import type { Route } from "next";
import { useRouter } from "next/navigation";
import { useEffect, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice, QueryErrorNotice } from "@/components/ui/error-notice";
import { Skeleton } from "@/components/ui/skeleton";
import type { Transaction } from "@/lib/model";
import { useTransactions } from "@/lib/queries/transactions";
import { ColumnToggle } from "./column-toggle";
import { ExportControls } from "./export-controls";
import { NUMERIC_COLUMNS, transactionColumns } from "./columns";
import { TransactionFilters } from "./filters";
import { hasActiveFilters, resolveRange, type PageSize } from "./list-state";
import { Pagination, pageCountOf } from "./pagination";
import { TotalsBar } from "./totals-bar";
import { useColumnVisibility } from "./use-column-visibility";
import { useListState } from "./use-list-state";

const NO_ROWS: Transaction[] = [];
/**
 * While the first page loads, the table is as tall as the page of rows will be (up to 50 rows): 8 skeleton rows as
 * tall as real ones (two lines of text), then one empty block for the rest. The arriving rows then do not push the
 * pagination and the rest of the page around (layout shift), and the skeleton costs few DOM nodes (blocking time).
 */
const SKELETON_ROWS = 8;
const MAX_RESERVED_ROWS = 50;
/** Two lines of text-sm (2 × 20 px) + py-2.5 (2 × 10 px) + the 1 px divider. */
const ROW_HEIGHT_PX = 61;

/** The transactions list: filters, the table (server-side pagination) and the pager, all driven by the URL. */
export function TransactionsTable() {
  const router = useRouter();
  const list = useListState();
  const { state } = list;
  const { from, to } = resolveRange(state);
  // The zone matters to the request only with dates: without, another zone changes how times read, not which rows.
  const tz = from === null && to === null ? "" : state.tz;
  const query = useTransactions({
    page: state.page,
    limit: state.pageSize,
    from,
    to,
    tz,
    status: state.status,
    search: state.search,
  });
  const [columnVisibility, setColumnVisibility] = useColumnVisibility();
  // The set's size for the totals bar: another page of the same filters is the same set, so the total of the rows on
  // screen stays while the next page loads (it goes only when the filters change).
  const totalsFilters = { from, to, tz, status: state.status, search: state.search };
  const filtersKey = JSON.stringify(totalsFilters);
  const [settledTotal, setSettledTotal] = useState<{ filtersKey: string; total: number } | null>(null);
  if (
    query.data !== undefined &&
    !query.isPlaceholderData &&
    (settledTotal?.filtersKey !== filtersKey || settledTotal.total !== query.data.total)
  ) {
    setSettledTotal({ filtersKey, total: query.data.total });
  }
  const listTotal = settledTotal?.filtersKey === filtersKey ? settledTotal.total : null;

  const data = query.data;
  // A page past the end (an old link, `?page=999999`, rows gone since): the last page instead, in place of the link.
  const lastPage =
    data === undefined || query.isPlaceholderData || data.total === 0 ? null : pageCountOf(data.total, data.limit);
  const { setPage } = list;
  useEffect(() => {
    if (lastPage !== null && state.page > lastPage) setPage(lastPage, "replace");
  }, [lastPage, state.page, setPage]);
  const pagination: PaginationState = { pageIndex: state.page - 1, pageSize: state.pageSize };
  // TanStack Table is not compatible with the React Compiler's memoization; this app does not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
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

  const detailHref = (id: string): Route => {
    const back = list.queryString === "" ? "" : `?back=${encodeURIComponent(list.queryString)}`;
    return `/transactions/${encodeURIComponent(id)}${back}` as Route;
  };
  const openRow = (id: string) => {
    router.push(detailHref(id));
  };
  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, id: string) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openRow(id);
    }
  };

  const isBusy = query.isPending || query.isPlaceholderData;
  const visibleColumns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <TransactionFilters state={state} onChange={list.setFilters} onTimeZoneChange={list.setTimeZone} />
        {/* At the right, on a line of its own: the buttons' line holds only buttons, so nothing moves them (the
            export's progress and messages wrap onto lines below, see ExportControls). */}
        <div className="ml-auto flex flex-wrap items-start justify-end gap-3">
          <ColumnToggle table={table} />
          <ExportControls filters={state} />
        </div>
      </div>

      {list.problems.length > 0 ? (
        <ErrorNotice tone="info" title="Parts of this link could not be used" message={list.problems.join(" ")} />
      ) : null}

      {query.isError ? (
        <QueryErrorNotice
          error={query.error}
          subject="transactions"
          onRetry={() => void query.refetch()}
          isRetrying={query.isFetching}
        />
      ) : null}

      <TotalsBar filters={totalsFilters} listTotal={listTotal} isListError={query.isError} />

      <div
        aria-busy={isBusy}
        className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <table className={`w-full text-left text-sm transition-opacity ${query.isPlaceholderData ? "opacity-60" : ""}`}>
          <caption className="sr-only">Transactions. Press Enter on a row to open its detail.</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-800 dark:bg-slate-800/60 dark:text-slate-200">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    className={`px-3 py-2.5 font-semibold whitespace-nowrap ${NUMERIC_COLUMNS.has(header.column.id) ? "text-right" : ""}`}
                  >
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-900 dark:divide-slate-800 dark:text-slate-100">
            {query.isPending
              ? [
                  ...Array.from({ length: Math.min(state.pageSize, SKELETON_ROWS) }, (_, index) => (
                    <tr key={index}>
                      {visibleColumns.map((column) => (
                        <td key={column.id} className="px-3 py-2.5 align-top">
                          <div className="flex flex-col gap-1 py-0.5">
                            <Skeleton className="h-4 w-full min-w-12" />
                            <Skeleton className="h-4 w-2/3 min-w-8" />
                          </div>
                        </td>
                      ))}
                    </tr>
                  )),
                  // The rest of the page's rows as one empty block of their height: the layout is final, the DOM small.
                  state.pageSize > SKELETON_ROWS ? (
                    <tr key="reserve" aria-hidden="true">
                      <td
                        colSpan={visibleColumns.length}
                        style={{
                          height: `${String((Math.min(state.pageSize, MAX_RESERVED_ROWS) - SKELETON_ROWS) * ROW_HEIGHT_PX)}px`,
                        }}
                      />
                    </tr>
                  ) : null,
                ]
              : rows.map((row) => (
                  <tr
                    key={row.id}
                    tabIndex={0}
                    data-testid="transaction-row"
                    className="cursor-pointer hover:bg-slate-50 focus-visible:bg-brand-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800 dark:focus-visible:outline-brand-400"
                    onClick={() => {
                      openRow(row.id);
                    }}
                    onKeyDown={(event) => {
                      onRowKeyDown(event, row.id);
                    }}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td
                        key={cell.id}
                        data-column={cell.column.id}
                        className={`px-3 py-2.5 align-top ${NUMERIC_COLUMNS.has(cell.column.id) ? "text-right whitespace-nowrap tabular-nums" : ""}`}
                      >
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
        {query.isPending && <p className="sr-only">Loading transactions…</p>}
        {data !== undefined && !query.isPlaceholderData && data.items.length === 0 ? (
          <EmptyState
            hasFilters={hasActiveFilters(state)}
            isPastEnd={data.total > 0}
            onClear={list.clearFilters}
            onFirstPage={() => {
              list.setPage(1);
            }}
          />
        ) : null}
      </div>

      <Pagination
        shown={
          data === undefined
            ? null
            : { page: data.page, limit: data.limit, total: data.total, rowCount: data.items.length }
        }
        isError={query.isError}
        page={state.page}
        pageSize={state.pageSize}
        onPageChange={(page) => {
          table.setPageIndex(page - 1);
        }}
        onPageSizeChange={(size) => {
          table.setPageSize(size);
        }}
      />
    </div>
  );
}

function EmptyState({
  hasFilters,
  isPastEnd,
  onClear,
  onFirstPage,
}: {
  hasFilters: boolean;
  isPastEnd: boolean;
  onClear: () => void;
  onFirstPage: () => void;
}) {
  return (
    <div className="px-4 py-10 text-center">
      <p className="font-medium text-slate-900 dark:text-slate-50">
        {isPastEnd
          ? "This page is past the last transaction"
          : hasFilters
            ? "No transactions match these filters"
            : "No transactions yet"}
      </p>
      <div className="mt-4 flex justify-center gap-3">
        {isPastEnd ? (
          <Button variant="secondary" onClick={onFirstPage}>
            Go to the first page
          </Button>
        ) : null}
        {hasFilters ? (
          <Button variant="secondary" onClick={onClear}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </div>
  );
}
