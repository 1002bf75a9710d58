"use client";

import type { RankedItem } from "@/lib/model";
import { useSummary } from "@/lib/queries/summary";
import { formatGallons, formatMoney } from "@/components/format/numbers";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { CardError } from "./card-states";
import { DailyChart } from "./daily-chart";

export function DailyChartCard({ className }: { className?: string }) {
  const { data: summary, isPending, isError, error, refetch, isFetching } = useSummary();

  return (
    <Card title="Daily spend and gallons" className={className}>
      {isPending ? (
        <div aria-busy="true">
          <p className="sr-only">Loading the daily chart…</p>
          <Skeleton className="h-5 w-72 max-w-full" />
          <Skeleton className="mt-3 aspect-[18/7] w-full" />
        </div>
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <>
          <DailyChart from={summary.from} to={summary.to} daily={summary.daily} totals={summary.totals} />
          <ProductsLine products={summary.products} />
        </>
      )}
    </Card>
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
