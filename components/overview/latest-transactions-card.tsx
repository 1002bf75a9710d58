"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";

import { Card } from "@/components/ui/card";
import { DataTable, useListTable } from "@/components/ui/data-table";
import { EntityLink } from "@/components/ui/entity-link";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TransactionStatusBadge } from "@/components/ui/status-badge";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { formatDateTime, formatFullDateTime } from "@/lib/format/dates";
import { formatCount, formatMoney } from "@/lib/format/numbers";
import type { Transaction } from "@/lib/model";
import { LATEST_TRANSACTIONS_COUNT, useLatestTransactions } from "@/lib/queries/summary";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

/** The newest transactions, each linking to its detail page. */
export function LatestTransactionsCard({ className }: { className?: string }) {
  const { data: page, isPending, isError, error, refetch, isFetching } = useDeferredQuery(useLatestTransactions());

  return (
    <Card title="Latest transactions" className={className}>
      {isPending ? (
        <CardSkeleton label="Loading the latest transactions…" rows={LATEST_TRANSACTIONS_COUNT} className="h-6" />
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : page.items.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">No transactions yet.</p>
      ) : (
        <>
          <LatestTable items={page.items} />
          <p className="mt-4 text-sm">
            <Link href="/transactions" className={TEXT_LINK_CLASSES}>
              View all transactions
              {page.total > page.items.length ? (
                <span className="text-slate-600 dark:text-slate-400"> ({formatCount(page.total)})</span>
              ) : null}
            </Link>
          </p>
        </>
      )}
    </Card>
  );
}

const column = createColumnHelper<Transaction>();

const COLUMNS = [
  column.accessor("at", {
    header: "Date",
    meta: { rowHeader: true, cellClassName: "whitespace-nowrap", card: "title" },
    cell: ({ row }) => (
      <Link
        href={`/transactions/${encodeURIComponent(row.original.id)}`}
        className={TEXT_LINK_CLASSES}
        title={formatFullDateTime(row.original.at)}
      >
        {formatDateTime(row.original.at)}
      </Link>
    ),
  }),
  column.accessor("station", {
    header: "Station",
    meta: { card: "primary" },
    cell: ({ getValue }) => (
      <>
        <span className="block">
          <EntityLink kind="station" id={getValue().id} inCell>
            {getValue().name}
          </EntityLink>
        </span>
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {getValue().city}, {getValue().state}
        </span>
      </>
    ),
  }),
  column.accessor("driver", {
    header: "Driver",
    meta: { card: "primary" },
    cell: ({ getValue }) => (
      <EntityLink kind="driver" id={getValue().id} inCell>
        {getValue().name}
      </EntityLink>
    ),
  }),
  column.accessor("amount", {
    header: "Amount",
    meta: { numeric: true, cellClassName: "font-medium", card: "primary" },
    cell: ({ getValue }) => formatMoney(getValue()),
  }),
  column.accessor("status", {
    header: "Status",
    meta: { card: "primary" },
    cell: ({ getValue }) => <TransactionStatusBadge status={getValue()} />,
  }),
];

export function LatestTable({ items }: { items: Transaction[] }) {
  const table = useListTable(items, COLUMNS);
  return (
    <DataTable
      table={table}
      variant="plain"
      caption="Latest transactions"
      testId="latest-transactions"
      className="min-w-[36rem]"
      wrapperClassName="-mx-5 overflow-x-auto px-5"
      rowAttributes={(row) => ({ "data-transaction-id": row.id })}
    />
  );
}
