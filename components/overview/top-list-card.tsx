"use client";

import type { RankedItem, TransactionSummary } from "@/lib/model";
import { useSummary } from "@/lib/queries/summary";
import { Card } from "@/components/ui/card";
import { formatCount, formatMoney } from "@/lib/format/numbers";
import { CardError, CardSkeleton } from "@/components/ui/query-states";

type RankedList = "topDrivers" | "topStations";

const COPY: Record<RankedList, { title: string; nameHeading: string; empty: string; loading: string }> = {
  topDrivers: {
    title: "Top drivers by spend",
    nameHeading: "Driver",
    empty: "No driver bought fuel in the last 30 days.",
    loading: "Loading the top drivers…",
  },
  topStations: {
    title: "Top stations by spend",
    nameHeading: "Station",
    empty: "No fuel was bought at any station in the last 30 days.",
    loading: "Loading the top stations…",
  },
};

/** The top drivers or stations of the last 30 days (completed and pending transactions), as a small table. */
export function TopListCard({ list, className }: { list: RankedList; className?: string }) {
  const { data: summary, isPending, isError, error, refetch, isFetching } = useSummary();
  const copy = COPY[list];

  return (
    <Card title={copy.title} className={className}>
      {isPending ? (
        <CardSkeleton label={copy.loading} rows={5} className="h-8" />
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <RankedTable items={pick(summary, list)} nameHeading={copy.nameHeading} empty={copy.empty} testId={list} />
      )}
    </Card>
  );
}

function pick(summary: TransactionSummary, list: RankedList): RankedItem[] {
  return list === "topDrivers" ? summary.topDrivers : summary.topStations;
}

function RankedTable({
  items,
  nameHeading,
  empty,
  testId,
}: {
  items: RankedItem[];
  nameHeading: string;
  empty: string;
  testId: string;
}) {
  if (items.length === 0) return <p className="text-sm text-slate-700 dark:text-slate-300">{empty}</p>;
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-slate-600 dark:text-slate-400">
        <tr>
          <th scope="col" className="pb-2 pr-3 font-medium">
            {nameHeading}
          </th>
          <th scope="col" className="pb-2 pr-3 text-right font-medium">
            Transactions
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            Spend
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
        {items.map((item) => (
          <tr key={item.id}>
            <th scope="row" className="py-2 pr-3 font-normal">
              <span className="block font-medium text-slate-900 dark:text-slate-50">{item.name}</span>
              {item.detail === null ? null : (
                <span className="block text-xs text-slate-600 dark:text-slate-400">{item.detail}</span>
              )}
            </th>
            <td className="py-2 pr-3 text-right text-slate-900 tabular-nums dark:text-slate-100">
              {formatCount(item.transactions)}
            </td>
            <td className="py-2 text-right font-medium text-slate-900 tabular-nums dark:text-slate-100">
              {formatMoney(item.amount)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
