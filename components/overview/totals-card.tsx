"use client";

import { Card } from "@/components/ui/card";
import { CardError } from "@/components/ui/query-states";
import { Skeleton } from "@/components/ui/skeleton";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { Totals30d } from "@/lib/model";
import { averagePricePerGallon, toMinorUnits } from "@/lib/model/decimal-math";
import { METRICS } from "@/lib/model/metrics";
import { useAccount } from "@/lib/queries/account";

const STAT_COUNT = 4;

export function TotalsCard({ className }: { className?: string }) {
  const { data: account, isPending, isError, error, refetch, isFetching } = useAccount();

  return (
    <Card title="Last 30 days (rolling)" className={className}>
      {isPending ? (
        <div aria-busy="true">
          <p className="sr-only">Loading the 30-day totals…</p>
          <div className="grid grid-cols-[repeat(auto-fit,minmax(11rem,1fr))] gap-4">
            {Array.from({ length: STAT_COUNT }, (_, index) => (
              <div key={index} className="space-y-2">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-7 w-28" />
              </div>
            ))}
          </div>
        </div>
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : account.totals30d === null ? (
        // The BFF leaves the totals out only when it could not compute them: the key lacks the transactions scope.
        <p className="text-sm text-slate-700 dark:text-slate-300">
          The 30-day totals are not available: your API key lacks the transactions scope. Ask your Fleet Fuel
          administrator for a key that includes it.
        </p>
      ) : (
        <Totals totals={account.totals30d} />
      )}
    </Card>
  );
}

function Totals({ totals }: { totals: Totals30d }) {
  const averagePrice = averagePricePerGallon(toMinorUnits(totals.amount, 2), toMinorUnits(totals.gallons, 3));
  return (
    <>
      <dl className="grid grid-cols-[repeat(auto-fit,minmax(11rem,1fr))] gap-x-4 gap-y-5">
        <Stat label="Transactions" value={formatCount(totals.transactions)} />
        <Stat label="Gallons" value={formatGallons(totals.gallons)} />
        <Stat label="Spend" value={formatMoney(totals.amount)} />
        <Stat
          label="Average price per gallon"
          value={averagePrice === null ? "No fuel bought" : formatUnitPrice(averagePrice)}
        />
      </dl>
      <p className="mt-5 text-xs text-slate-600 dark:text-slate-400">
        {METRICS["spend.rolling-30d"].caption}{" "}
        {totals.source === "upstream"
          ? "As reported by the Fleet Fuel API."
          : "Added up by the dashboard from your transactions (the Fleet Fuel API did not report totals)."}{" "}
        The daily chart counts whole calendar days (UTC) instead, so its totals differ slightly.
      </p>
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words text-slate-900 tabular-nums dark:text-slate-50">{value}</dd>
    </div>
  );
}
