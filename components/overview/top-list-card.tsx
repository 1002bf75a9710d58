"use client";

import { createColumnHelper } from "@tanstack/react-table";

import { Card } from "@/components/ui/card";
import { DataTable, useListTable } from "@/components/ui/data-table";
import { EntityLink } from "@/components/ui/entity-link";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { metricPeriodCaption } from "@/lib/format/metric-sentences";
import { formatCount, formatMoney } from "@/lib/format/numbers";
import type { RankedItem, TransactionSummary, TransactionSummaryReply } from "@/lib/model";
import { useSummary } from "@/lib/queries/summary";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

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

/**
 * The top drivers or stations of the last 30 days, as a small table, with its period and basis from the metrics layer
 * (from the local copy by each purchase's local date: /drivers' and a driver's page's figures for the same dates).
 */
export function TopListCard({ list, className }: { list: RankedList; className?: string }) {
  const { data: summary, isPending, isError, error, refetch, isFetching } = useDeferredQuery(useSummary());
  const copy = COPY[list];

  return (
    <Card title={copy.title} className={className}>
      {isPending ? (
        <CardSkeleton label={copy.loading} rows={5} className="h-8" />
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : pick(summary, list).length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{copy.empty}</p>
      ) : (
        <>
          <RankedTable items={pick(summary, list)} list={list} />
          <RankingPeriod summary={summary} />
        </>
      )}
    </Card>
  );
}

function pick(summary: TransactionSummary, list: RankedList): RankedItem[] {
  return list === "topDrivers" ? summary.topDrivers : summary.topStations;
}

const column = createColumnHelper<RankedItem>();

function rankedColumns(nameHeading: string, kind: "driver" | "station") {
  return [
    column.accessor("name", {
      header: nameHeading,
      meta: { rowHeader: true },
      cell: ({ row }) => (
        <>
          <span className="block font-medium text-slate-900 dark:text-slate-50">
            <EntityLink kind={kind} id={row.original.id} inCell>
              {row.original.name}
            </EntityLink>
          </span>
          {row.original.detail === null ? null : (
            <span className="block text-xs text-slate-600 dark:text-slate-400">{row.original.detail}</span>
          )}
        </>
      ),
    }),
    column.accessor("transactions", {
      header: "Transactions",
      meta: { numeric: true },
      cell: ({ getValue }) => formatCount(getValue()),
    }),
    column.accessor("amount", {
      header: "Spend",
      meta: { numeric: true, cellClassName: "font-medium" },
      cell: ({ getValue }) => formatMoney(getValue()),
    }),
  ];
}

const COLUMNS: Record<RankedList, ReturnType<typeof rankedColumns>> = {
  topDrivers: rankedColumns(COPY.topDrivers.nameHeading, "driver"),
  topStations: rankedColumns(COPY.topStations.nameHeading, "station"),
};

function RankedTable({ items, list }: { items: RankedItem[]; list: RankedList }) {
  const table = useListTable(items, COLUMNS[list]);
  return <DataTable table={table} variant="plain" caption={COPY[list].title} testId={list} />;
}

/** Which days and which purchases the ranking counts (issue 25: the list had no period). */
export function RankingPeriod({
  summary,
}: {
  summary: Pick<TransactionSummaryReply, "from" | "to" | "rankingMetric">;
}) {
  return (
    <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="ranking-period">
      {metricPeriodCaption(summary.rankingMetric, summary.from, summary.to)}
    </p>
  );
}
