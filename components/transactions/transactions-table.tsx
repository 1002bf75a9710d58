"use client";

import type { Row, Table } from "@tanstack/react-table";
import type { Route } from "next";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, type MouseEvent } from "react";

import { Button } from "@/components/ui/button";
import { DataTable, type RowAttributes } from "@/components/ui/data-table";
import { ErrorNotice, QueryErrorNotice } from "@/components/ui/error-notice";
import type { Transaction } from "@/lib/model";
import { useSyncStatus } from "@/lib/queries/sync";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

import { ColumnToggle } from "./column-toggle";
import { ExportControls } from "./export-controls";
import { TransactionFilters } from "./filters";
import { hasActiveFilters } from "./list-state";
import { isMirrorConflict, MirrorFilterSlot, OriginLine } from "./mirror-bar";
import { partialText } from "./mirror-text";
import { Pagination } from "./pagination";
import { TotalsBar } from "./totals-bar";
import { useListState } from "./use-list-state";
import { useTransactionsPage, useTransactionTable } from "./use-transactions-table";

type ListControls = ReturnType<typeof useListState>;

/** The transactions list: filters, the table (server-side pagination) and the pager, all driven by the URL. */
export function TransactionsTable() {
  const list = useListState();
  const { state } = list;
  const { query, filters, listTotal } = useTransactionsPage(list);
  const sync = useSyncStatus();
  // The page of rows renders in a deferred (sliced) render (lib/queries/use-deferred-query.ts): until the new rows are
  // drawn, the skeleton (first load) or the rows before (dimmed and busy, as while the answer loads) stay.
  const rows = useDeferredQuery(query);
  const { data } = rows;
  const origin = data?.origin;
  const table = useTransactionTable(data, state, list, origin?.source === "mirror");
  const conflict = query.isError && isMirrorConflict(query.error) ? query.error : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <TransactionFilters
          state={state}
          onChange={list.setFilters}
          onTimeZoneChange={list.setTimeZone}
          browserZone={list.browserZone}
          more={
            <MirrorFilterSlot
              hydrated={list.zoneKnown}
              sync={sync}
              values={state.mirror}
              onChange={list.setMirrorFilters}
              conflict={conflict}
              onRemove={list.clearMirrorFilters}
            />
          }
        />
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

      {query.isError && conflict === null ? (
        <QueryErrorNotice
          error={query.error}
          subject="transactions"
          onRetry={() => void query.refetch()}
          isRetrying={query.isFetching}
        />
      ) : null}

      <TotalsBar
        filters={filters}
        isFromMirror={origin?.source === "mirror"}
        listTotal={listTotal}
        isListError={query.isError}
      />

      <OriginLine origin={origin} partial={partialText(origin, data?.dateFilter?.from ?? null, sync.data)} />

      <TransactionRows
        table={table}
        list={list}
        isPending={rows.isPending}
        isPlaceholderData={rows.isPlaceholderData}
        answer={data === undefined ? null : { total: data.total, rowCount: data.items.length }}
      />

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

const ROW_CLASSES =
  "cursor-pointer hover:bg-slate-50 focus-visible:bg-brand-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800 dark:focus-visible:outline-brand-400";

/** The table itself: rows that open their detail (click, Enter or Space), skeleton rows, the empty state. */
function TransactionRows({
  table,
  list,
  isPending,
  isPlaceholderData,
  answer,
}: {
  table: Table<Transaction>;
  list: ListControls;
  isPending: boolean;
  isPlaceholderData: boolean;
  /** The last answer's size, or null before the first one (or after a failure). */
  answer: { total: number; rowCount: number } | null;
}) {
  const router = useRouter();
  const openRow = (id: string) => {
    const back = list.queryString === "" ? "" : `?back=${encodeURIComponent(list.queryString)}`;
    router.push(`/transactions/${encodeURIComponent(id)}${back}` as Route);
  };
  const rowAttributes = (row: Row<Transaction>): RowAttributes => ({
    tabIndex: 0,
    "data-testid": "transaction-row",
    className: ROW_CLASSES,
    onClick: (event: MouseEvent<HTMLElement>) => {
      // A name in the row links to its own page (a driver's, a station's): that link, not the row, was clicked.
      if (event.target instanceof Element && event.target.closest("a, button") !== null) return;
      openRow(row.id);
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (event.target !== event.currentTarget) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        openRow(row.id);
      }
    },
  });
  const isEmpty = answer !== null && !isPlaceholderData && answer.rowCount === 0;
  return (
    <DataTable
      table={table}
      caption="Transactions. Press Enter on a row to open its detail."
      busy={isPending || isPlaceholderData}
      dimmed={isPlaceholderData}
      loading={isPending ? { label: "Loading transactions…", rows: list.state.pageSize } : null}
      rowAttributes={rowAttributes}
      empty={
        isEmpty ? (
          <EmptyState
            hasFilters={hasActiveFilters(list.state)}
            isPastEnd={answer.total > 0}
            onClear={list.clearFilters}
            onFirstPage={() => {
              list.setPage(1);
            }}
          />
        ) : null
      }
    />
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
