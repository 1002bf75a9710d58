import { Card } from "@/components/ui/card";
import { DefinitionList } from "@/components/ui/definition-list";
import { CardSkeleton } from "@/components/ui/query-states";
import { Skeleton } from "@/components/ui/skeleton";
import type { DrilldownDimension } from "@/lib/model/insight-drilldowns";

/** The totals card's labels, in its order (drilldown-detail.tsx's TotalsCard). */
const TOTALS_LABELS = ["Spend", "Gallons", "Purchases", "Average price", "DEF ratio", "Last purchase"] as const;

/**
 * A detail page's figures while they load: the same cards, titles and heights as the loaded figures where a first
 * screen shows them (the totals and the chart), so nothing below them moves when they come (issue 26: a driver's page
 * had CLS 0.66 on a phone when six grey bars gave way to four cards and pushed the savings panel down).
 */
export function DrilldownInsightsLoading({ dimension, label }: { dimension: DrilldownDimension; label: string }) {
  return (
    <div className="space-y-4" aria-busy="true" data-testid="drilldown-loading">
      <p className="sr-only">Loading the figures…</p>
      <Card title={`Totals, ${label}`}>
        <DefinitionList items={TOTALS_LABELS.map((name) => [name, <ValueSkeleton key={name} />])} />
        {/* The change against the previous period (PeriodChangeLine: mt-2, one line of text-sm). */}
        <Skeleton className="mt-2 h-5 w-64 max-w-full" />
      </Card>
      <Card title="Spend over the period">
        <ChartSkeleton />
      </Card>
      <Card title={dimension === "station" ? "Drivers at this station" : "Its stations"}>
        <CardSkeleton label="Loading the breakdown…" rows={6} className="h-8" />
      </Card>
    </div>
  );
}

/** One value of the totals: a bar of one text-sm line's height (20 px), so the list is as tall as when it is filled. */
function ValueSkeleton() {
  return (
    <div className="flex h-5 items-center">
      <Skeleton className="h-4 w-32 max-w-full" />
    </div>
  );
}

/** DailyChart's place while it loads: the legend, the chart (its 720 × 280 viewBox at the card's width), the button. */
export function ChartSkeleton() {
  return (
    <div aria-hidden="true">
      <Skeleton className="h-5 w-72 max-w-full" />
      <Skeleton className="mt-3 aspect-[18/7] w-full" />
      <Skeleton className="mt-3 h-9 w-32" />
    </div>
  );
}
