"use client";

import Link from "next/link";

import { CoverageNote } from "@/components/insights/coverage-note";
import { InsightRangePicker, useInsightRange } from "@/components/insights/range-picker";
import { PeriodChangeLine } from "@/components/overview/period-change-line";
import { Card } from "@/components/ui/card";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";
import { METRICS } from "@/lib/model/metrics";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

import { DIMENSIONS, transactionsLink } from "./dimensions";
import { drilldownChange, listCaption } from "./figures";
import { FiguresTable } from "./figures-table";
import { PreviousCoverageNote } from "./previous-coverage-note";
import { useDrilldownList } from "./use-drilldown";

/** The rule every drill-down figure follows, said once on each page: the metrics layer's caption of its metric. */
export const SPEND_RULE = `${METRICS["spend.local-date"].caption} A purchase's local date is the time the station reported, with its own UTC offset.`;

/** `/drivers`, `/trucks`, `/cards`: every key ranked by spend over the chosen period, with the change against the previous one. */
export function DrilldownListView({ dimension }: { dimension: Exclude<DrilldownDimension, "station"> }) {
  const range = useInsightRange();
  const words = DIMENSIONS[dimension];
  const { data, isPending, isError, error, refetch, isFetching } = useDeferredQuery(
    useDrilldownList(dimension, range.params),
  );
  return (
    <div className="space-y-4">
      <InsightRangePicker range={range} />
      <p className="text-sm text-slate-700 dark:text-slate-300">{SPEND_RULE}</p>
      {isPending ? (
        <CardSkeleton label={`Loading the ${words.plural.toLowerCase()}…`} rows={8} className="h-8" />
      ) : isError ? (
        <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
      ) : (
        <div className="space-y-4" aria-busy={isFetching}>
          <CoverageNote coverage={data.coverage} />
          <PreviousCoverageNote current={data.coverage} previous={data.previousCoverage} />
          <Card title={`All ${words.plural.toLowerCase()}, ${range.label}`}>
            <p className="text-sm text-slate-900 dark:text-slate-100" data-testid="drilldown-totals">
              {formatMoney(data.totals.amount)} on {formatCount(data.totals.purchases)} purchases,{" "}
              {formatGallons(data.totals.gallons)} gallons
              {data.coverage.covered === null ? null : (
                <>
                  {" "}
                  (
                  <Link href={transactionsLink(dimension, null, data.coverage.covered)} className={TEXT_LINK_CLASSES}>
                    view the transactions
                  </Link>
                  )
                </>
              )}
              .
            </p>
            <PeriodChangeLine
              change={drilldownChange(data.totals, data.previousTotals, data.previousCoverage, data.settling)}
            />
            {data.withoutKey !== null && data.withoutKey.purchases > 0 ? (
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="without-key">
                {formatCount(data.withoutKey.purchases)} purchases ({formatMoney(data.withoutKey.amount)}) were made by
                drivers with no truck: they are in the total above, not in the table.
              </p>
            ) : null}
          </Card>
          <FiguresTable
            dimension={dimension}
            rows={data.rows}
            periodQuery={range.params.toString()}
            range={data.coverage.covered}
            caption={listCaption(words.plural, range.label, data.periods, data.previousCoverage)}
            changeHeading={data.previousCoverage.complete ? "Change vs previous" : null}
            testId="drilldown-table"
          />
        </div>
      )}
    </div>
  );
}
