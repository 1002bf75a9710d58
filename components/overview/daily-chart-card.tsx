"use client";

import { Card } from "@/components/ui/card";
import { periodChange } from "@/components/ui/period-change";
import { CardError } from "@/components/ui/query-states";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { RankedItem, SummaryTotals } from "@/lib/model";
import { METRICS } from "@/lib/model/metrics";
import { useSummary } from "@/lib/queries/summary";

import { DailyChart } from "./daily-chart";
import { CHART_BOX_CLASSES } from "./daily-chart-geometry";
import { PeriodChangeLine } from "./period-change-line";

export function DailyChartCard({ className }: { className?: string }) {
  const { data: summary, isPending, isError, error, refetch, isFetching } = useSummary();

  return (
    <Card title="Daily spend and gallons" className={className}>
      {isPending ? (
        <div aria-busy="true">
          <p className="sr-only">Loading the daily chart…</p>
          <Skeleton className="h-5 w-72 max-w-full" />
          <Skeleton className={`mt-3 w-full ${CHART_BOX_CLASSES}`} />
        </div>
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <>
          <DailyChart from={summary.from} to={summary.to} daily={summary.daily} totals={summary.totals} />
          <CalendarTotalsLine from={summary.from} to={summary.to} totals={summary.totals} />
          <PeriodChangeLine change={periodChange(summary.comparison)} />
          <ProductsLine products={summary.products} />
        </>
      )}
    </Card>
  );
}

/**
 * The chart's own totals, saying which 30 days they are: whole calendar days (UTC), today so far. The "Last 30 days
 * (rolling)" card counts the 720 hours up to now instead, so the two differ by the part-days at either end; each
 * says which it is, so a person sees why.
 */
function CalendarTotalsLine({ from, to, totals }: { from: string; to: string; totals: SummaryTotals }) {
  return (
    <p className="mt-4 text-sm text-slate-700 dark:text-slate-300" data-testid="chart-totals">
      <span className="font-medium text-slate-900 dark:text-slate-50">
        Calendar days {formatDay(from)} to {formatDay(to)} (UTC, today so far):{" "}
      </span>
      {formatCount(totals.transactions)} transactions · {formatMoney(totals.amount)} · {formatGallons(totals.gallons)}{" "}
      gal. {METRICS["spend.utc-day"].caption} The rolling total above counts the 30 × 24 hours up to now instead.
    </p>
  );
}

/** Spend by product over the same window, in one line. */
function ProductsLine({ products }: { products: RankedItem[] }) {
  if (products.length === 0) return null;
  return (
    <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
      <span className="font-medium text-slate-900 dark:text-slate-50">By product: </span>
      {products.map((product, index) => (
        <span key={product.id}>
          {index === 0 ? "" : " · "}
          {product.name} {formatMoney(product.amount)} ({formatGallons(product.gallons)} gal)
        </span>
      ))}
    </p>
  );
}
