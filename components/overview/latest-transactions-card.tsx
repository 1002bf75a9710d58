"use client";

import Link from "next/link";
import type { Transaction } from "@/lib/model";
import { LATEST_TRANSACTIONS_COUNT, useLatestTransactions } from "@/lib/queries/summary";
import { Card } from "@/components/ui/card";
import { formatCount, formatMoney } from "@/lib/format/numbers";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { formatDateTime, formatFullDateTime } from "@/lib/format/dates";
import { TransactionStatusBadge } from "@/components/ui/status-badge";

const LINK_CLASSES =
  "font-medium text-brand-800 underline decoration-brand-800/40 underline-offset-2 hover:decoration-brand-800 dark:text-brand-300 dark:decoration-brand-300/50 dark:hover:decoration-brand-300";

/** The newest transactions, each linking to its detail page. */
export function LatestTransactionsCard({ className }: { className?: string }) {
  const { data: page, isPending, isError, error, refetch, isFetching } = useLatestTransactions();

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
          <div className="relative -mx-5 overflow-x-auto px-5">
            <LatestTable items={page.items} />
          </div>
          <p className="mt-4 text-sm">
            <Link href="/transactions" className={LINK_CLASSES}>
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

function LatestTable({ items }: { items: Transaction[] }) {
  return (
    <table className="w-full min-w-[36rem] text-left text-sm" data-testid="latest-transactions">
      <thead className="text-slate-600 dark:text-slate-400">
        <tr>
          <th scope="col" className="pb-2 pr-3 font-medium">
            Date
          </th>
          <th scope="col" className="pb-2 pr-3 font-medium">
            Station
          </th>
          <th scope="col" className="pb-2 pr-3 font-medium">
            Driver
          </th>
          <th scope="col" className="pb-2 pr-3 text-right font-medium">
            Amount
          </th>
          <th scope="col" className="pb-2 font-medium">
            Status
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 text-slate-900 dark:divide-slate-800 dark:text-slate-100">
        {items.map((transaction) => (
          <tr key={transaction.id} data-transaction-id={transaction.id}>
            <th scope="row" className="py-2 pr-3 font-normal whitespace-nowrap">
              <Link
                href={`/transactions/${encodeURIComponent(transaction.id)}`}
                className={LINK_CLASSES}
                title={formatFullDateTime(transaction.at)}
              >
                {formatDateTime(transaction.at)}
              </Link>
            </th>
            <td className="py-2 pr-3">
              <span className="block">{transaction.station.name}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-400">
                {transaction.station.city}, {transaction.station.state}
              </span>
            </td>
            <td className="py-2 pr-3">{transaction.driver.name}</td>
            <td className="py-2 pr-3 text-right font-medium tabular-nums">{formatMoney(transaction.amount)}</td>
            <td className="py-2">
              <TransactionStatusBadge status={transaction.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
