"use client";

import type { Route } from "next";
import Link from "next/link";
import { useMemo } from "react";

import { CoverageNote } from "@/components/insights/coverage-note";
import { type InsightRange, InsightRangePicker, useInsightRange } from "@/components/insights/range-picker";
import { LatestTable } from "@/components/overview/latest-transactions-card";
import { PeriodChangeLine } from "@/components/overview/period-change-line";
import { SavingsPanel } from "@/components/savings/savings-panel";
import { Card } from "@/components/ui/card";
import { DefinitionList } from "@/components/ui/definition-list";
import { PageHeader } from "@/components/ui/page-header";
import { CardError, CardSkeleton } from "@/components/ui/query-states";
import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { formatLongDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney, formatUnitPrice } from "@/lib/format/numbers";
import type { SummaryDay } from "@/lib/model";
import type { DrilldownDetailReply, DrilldownDimension } from "@/lib/model/insight-drilldowns";
import { useDeferredQuery } from "@/lib/queries/use-deferred-query";

import { BreakdownCard } from "./breakdown-card";
import { DailyChart } from "./daily-chart-lazy";
import { DIMENSIONS, transactionsLink } from "./dimensions";
import { DrilldownInsightsLoading } from "./drilldown-detail-loading";
import { SPEND_RULE } from "./drilldown-list";
import { drilldownChange } from "./figures";
import { PreviousCoverageNote } from "./previous-coverage-note";
import { useDrilldownDetail, useDrilldownTransactions } from "./use-drilldown";

/** `/drivers/[id]`, `/trucks/[id]`, `/cards/[last4]`: one key's figures over the chosen period, as a page. */
export function DrilldownDetailPage({
  dimension,
  id,
  known = null,
}: {
  dimension: Exclude<DrilldownDimension, "station">;
  id: string;
  /** The key's name and detail as the server found them before the page streamed; null when it could not tell. */
  known?: { name: string; detail: string | null } | null;
}) {
  const range = useInsightRange();
  const words = DIMENSIONS[dimension];
  const query = useDrilldownDetail(dimension, id, range.params);
  const back = (
    <Link href={`/${words.plural.toLowerCase()}` as Route} className={TEXT_LINK_CLASSES}>
      ← All {words.plural.toLowerCase()}
    </Link>
  );
  // The server's name and detail until the figures come (the same words: no shift of the header when they do).
  const label = query.data ?? known;
  const title = label?.name ?? (dimension === "card" ? `•••• ${id}` : `${words.heading} ${id}`);
  return (
    <div className="space-y-4">
      <p>{back}</p>
      <PageHeader title={title}>
        {label?.detail ? `${dimension === "driver" ? "Truck" : "Driver"} ${label.detail}. ` : null}
        Spend, gallons and stations of this {words.one} over {range.label}.
      </PageHeader>
      <DrilldownInsights dimension={dimension} id={id} range={range} query={query} />
      {/* GET /api/savings takes a driver or a station: the panel shows on those pages. */}
      {dimension === "driver" ? <SavingsPanel scope={{ driver: id }} range={Object.fromEntries(range.params)} /> : null}
    </div>
  );
}

/** `/stations/[id]`: the same figures for a station, under what its page shows today. */
export function StationInsights({ id }: { id: string }) {
  const range = useInsightRange();
  const query = useDrilldownDetail("station", id, range.params);
  return (
    <section aria-labelledby="station-insights-heading" className="mt-8 space-y-4">
      <h2 id="station-insights-heading" className="text-xl font-semibold text-slate-900 dark:text-slate-50">
        Your fleet at this station
      </h2>
      <DrilldownInsights dimension="station" id={id} range={range} query={query} />
      <SavingsPanel scope={{ station: id }} range={Object.fromEntries(range.params)} />
    </section>
  );
}

function DrilldownInsights(props: {
  dimension: DrilldownDimension;
  id: string;
  range: InsightRange;
  query: ReturnType<typeof useDrilldownDetail>;
}) {
  const { dimension, range, query } = props;
  const { data, isPending, isError, error, refetch, isFetching } = useDeferredQuery(query);
  return (
    <div className="space-y-4">
      <InsightRangePicker range={range} />
      <p className="text-sm text-slate-700 dark:text-slate-300">{SPEND_RULE}</p>
      {isPending ? (
        <DrilldownInsightsLoading dimension={dimension} label={range.label} />
      ) : isError ? (
        error.status === 404 || error.status === 409 ? (
          // Not a failure of the page: no purchase of this key yet (404), or no local copy for this session (409).
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="drilldown-unavailable">
            {error.message}
          </p>
        ) : (
          <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
        )
      ) : (
        <div className="space-y-4" aria-busy={isFetching}>
          <CoverageNote coverage={data.coverage} />
          <PreviousCoverageNote current={data.coverage} previous={data.previousCoverage} />
          <TotalsCard data={data} label={range.label} />
          <TrendCard data={data} />
          <BreakdownCard dimension={dimension} data={data} label={range.label} periodQuery={range.params.toString()} />
          <TransactionsCard dimension={dimension} data={data} />
        </div>
      )}
    </div>
  );
}

function TotalsCard({ data, label }: { data: DrilldownDetailReply; label: string }) {
  const t = data.totals;
  return (
    <Card title={`Totals, ${label}`}>
      <div data-testid="drilldown-detail-totals">
        <DefinitionList
          items={[
            ["Spend", formatMoney(t.amount)],
            ["Gallons", formatGallons(t.gallons)],
            ["Purchases", formatCount(t.purchases)],
            [
              "Average price",
              t.averagePricePerGallon === null
                ? "No fuel bought"
                : `${formatUnitPrice(t.averagePricePerGallon)} per gallon`,
            ],
            [
              "DEF ratio",
              t.defRatioPercent === null
                ? "No diesel bought"
                : `${t.defRatioPercent} % (${formatGallons(t.defGallons)} gal DEF to ${formatGallons(t.dieselGallons)} gal diesel)`,
            ],
            [
              "Last purchase",
              t.lastPurchaseLocalDate === null ? "None in this period" : formatLongDay(t.lastPurchaseLocalDate),
            ],
          ]}
        />
      </div>
      <PeriodChangeLine change={drilldownChange(t, data.previous, data.previousCoverage, data.settling)} />
    </Card>
  );
}

function TrendCard({ data }: { data: DrilldownDetailReply }) {
  const daily = useMemo(
    (): SummaryDay[] =>
      data.trend.points.map((p) => ({ date: p.from, transactions: p.purchases, gallons: p.gallons, amount: p.amount })),
    [data.trend.points],
  );
  const first = data.trend.points[0];
  const last = data.trend.points.at(-1);
  return (
    <Card title={data.trend.unit === "week" ? "Spend per week" : "Spend per day"}>
      {first === undefined || last === undefined ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">No days of this period are covered yet.</p>
      ) : (
        <DailyChart
          from={first.from}
          to={last.to}
          daily={daily}
          totals={{
            transactions: data.totals.purchases,
            gallons: data.totals.gallons,
            amount: data.totals.amount,
            averagePricePerGallon: data.totals.averagePricePerGallon,
          }}
          per={data.trend.unit}
          datesAre="local dates of purchase"
        />
      )}
    </Card>
  );
}

/** The newest rows behind the figures (the overview's table of latest transactions), and the link to all of them. */
function TransactionsCard({ dimension, data }: { dimension: DrilldownDimension; data: DrilldownDetailReply }) {
  const covered = data.coverage.covered;
  const { data: page, isError, error, refetch, isFetching } = useDrilldownTransactions(dimension, data.key, covered);
  return (
    <Card title="Its transactions">
      {covered === null ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">The local copy does not cover this period yet.</p>
      ) : (
        <>
          {isError ? (
            <CardError error={error} subject="transactions" onRetry={() => void refetch()} isRetrying={isFetching} />
          ) : page === undefined ? (
            <CardSkeleton label="Loading its latest transactions…" rows={5} className="h-6" />
          ) : page.items.length === 0 ? null : (
            <LatestTable items={page.items} />
          )}
          <p className="mt-4 text-sm">
            <Link href={transactionsLink(dimension, data.key, covered)} className={TEXT_LINK_CLASSES}>
              View the {formatCount(data.totals.purchases)} purchases (and any failed attempts) in the transactions list
            </Link>
          </p>
        </>
      )}
    </Card>
  );
}
