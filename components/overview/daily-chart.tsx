"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useId, useMemo, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { DataTable, useListTable } from "@/components/ui/data-table";
import { useElementSize } from "@/components/ui/use-element-size";
import { formatDay, formatLongDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { SummaryDay, SummaryTotals } from "@/lib/model";
import { toMinorUnits } from "@/lib/model/decimal-math";

import { CHART_BOX_CLASSES, chartGeometry, DEFAULT_CHART_SIZE } from "./daily-chart-geometry";
import { DailyChartSvg, GALLONS_FILL, GALLONS_STROKE, SPEND_FILL } from "./daily-chart-svg";

export interface DailyChartProps {
  from: string;
  to: string;
  daily: readonly SummaryDay[];
  totals: SummaryTotals;
  /** What one point is (the drill-downs' trend is per week past 62 days; `date` is then the week's first day). */
  per?: "day" | "week";
  /** What the dates are, for the table's caption. */
  datesAre?: string;
}

/** Daily spend (bars, left axis) and gallons (line, right axis), with a data table for screen readers and keyboard users. */
export function DailyChart({ from, to, daily, totals, per = "day", datesAre = "UTC days" }: DailyChartProps) {
  const titleId = useId();
  const descriptionId = useId();
  const busiest = busiestDay(daily);
  const description =
    `${formatCount(daily.length)} ${per}s. Spend ${formatMoney(totals.amount)} and ${formatGallons(totals.gallons)} gallons in all` +
    (busiest === null
      ? "; no spend on any day."
      : `; the highest spend was ${formatMoney(busiest.amount)} ${per === "week" ? "in the week from" : "on"} ${formatLongDay(busiest.date)}.`);

  return (
    <div>
      <ChartLegend per={per} />
      <ChartBox
        daily={daily}
        title={`${per === "week" ? "Weekly" : "Daily"} spend and gallons, ${formatDay(from)} to ${formatDay(to)}`}
        description={description}
        titleId={titleId}
        descriptionId={descriptionId}
      />
      <DailyTable
        daily={daily}
        per={per}
        caption={`${per === "week" ? "Weekly" : "Daily"} spend, gallons and transactions, ${formatLongDay(from)} to ${formatLongDay(to)} (${datesAre})`}
      />
    </div>
  );
}

/**
 * The chart's box: its height reserved by CSS (CHART_BOX_CLASSES, as the card's skeleton), its width measured, and the
 * chart drawn in those pixels so its text keeps its size at every width.
 */
function ChartBox(props: {
  daily: readonly SummaryDay[];
  title: string;
  description: string;
  titleId: string;
  descriptionId: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, DEFAULT_CHART_SIZE);
  const { daily } = props;
  const geometry = useMemo(() => chartGeometry(daily, size), [daily, size]);
  return (
    <div ref={box} className={`mt-3 w-full ${CHART_BOX_CLASSES}`} data-testid="chart-box">
      <DailyChartSvg {...props} geometry={geometry} />
    </div>
  );
}

const column = createColumnHelper<SummaryDay & { id: string }>();
const dayColumns = (per: "day" | "week") => [
  column.accessor("date", {
    header: per === "week" ? "Week from" : "Day",
    meta: { rowHeader: true },
    cell: ({ getValue }) => formatLongDay(getValue()),
  }),
  column.accessor("amount", {
    header: "Spend",
    meta: { numeric: true },
    cell: ({ getValue }) => formatMoney(getValue()),
  }),
  column.accessor("gallons", {
    header: "Gallons",
    meta: { numeric: true },
    cell: ({ getValue }) => formatGallons(getValue()),
  }),
  column.accessor("transactions", {
    header: "Transactions",
    meta: { numeric: true },
    cell: ({ getValue }) => formatCount(getValue()),
  }),
];

/** The chart's figures as a table: always in the page for screen readers, shown on request for everyone else. */
function DailyTable({ daily, caption, per }: { daily: readonly SummaryDay[]; caption: string; per: "day" | "week" }) {
  const [isTableShown, setIsTableShown] = useState(false);
  const tableId = useId();
  const rows = useMemo(() => daily.map((day) => ({ ...day, id: day.date })), [daily]);
  const columns = useMemo(() => dayColumns(per), [per]);
  const table = useListTable(rows, columns);
  return (
    <>
      <div className="mt-3">
        <Button
          variant="secondary"
          aria-expanded={isTableShown}
          aria-controls={tableId}
          onClick={() => {
            setIsTableShown((shown) => !shown);
          }}
        >
          {isTableShown ? "Hide table" : "Show as table"}
        </Button>
      </div>
      <div
        id={tableId}
        // Shown, it scrolls: focusable so keyboard users can scroll it too, named for the region it becomes.
        {...(isTableShown
          ? { tabIndex: 0, role: "region", "aria-label": per === "week" ? "Weekly figures" : "Daily figures" }
          : {})}
        className={
          isTableShown
            ? "relative mt-3 max-h-96 overflow-y-auto rounded-md border border-slate-200 px-3 dark:border-slate-800"
            : "sr-only"
        }
      >
        <DataTable
          table={table}
          variant="plain"
          caption={caption}
          rowAttributes={(row) => ({ "data-day-row": row.id })}
        />
      </div>
    </>
  );
}

function ChartLegend({ per }: { per: "day" | "week" }) {
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700 dark:text-slate-300" aria-label="Legend">
      <li className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
          <rect x={2} y={2} width={12} height={12} rx={1.5} className={SPEND_FILL} />
        </svg>
        Spend per {per} (bars, left axis)
      </li>
      <li className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 24 16" className="h-4 w-6">
          <line x1={1} x2={23} y1={8} y2={8} strokeWidth={2} className={GALLONS_STROKE} />
          <circle cx={12} cy={8} r={3.5} strokeWidth={1.5} className={`${GALLONS_STROKE} ${GALLONS_FILL}`} />
        </svg>
        Gallons per {per} (line, right axis)
      </li>
    </ul>
  );
}

/** The day with the most spend (the first one on a tie), compared exactly; null when no day had any. */
function busiestDay(daily: readonly SummaryDay[]): SummaryDay | null {
  let best: SummaryDay | null = null;
  let bestCents = 0n;
  for (const day of daily) {
    const cents = toMinorUnits(day.amount, 2);
    if (cents > bestCents) {
      best = day;
      bestCents = cents;
    }
  }
  return best;
}
