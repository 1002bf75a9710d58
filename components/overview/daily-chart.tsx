"use client";

import { useId, useState } from "react";
import { toMinorUnits } from "@/lib/model/decimal-math";
import type { SummaryDay, SummaryTotals } from "@/lib/model";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import { Button } from "@/components/ui/button";
import { axisScale, labelIndexes, ticks } from "./chart-scale";
import { formatDay, formatLongDay } from "@/lib/format/dates";

// The drawing's own coordinates; the SVG scales to its container through the viewBox.
const WIDTH = 720;
const HEIGHT = 280;
const MARGIN = { top: 16, right: 64, bottom: 40, left: 64 } as const;
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
const MAX_TICKS = 4;
const X_LABELS = 6;
const BAR_SHARE = 0.6;

const compactMoney = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 1,
});
const compactNumber = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

// Series differ by shape as well as colour: spend is drawn as bars (squares in the legend), gallons as a line with
// round markers.
const SPEND_FILL = "fill-brand-600 dark:fill-brand-400";
const GALLONS_STROKE = "stroke-sky-700 dark:stroke-sky-300";
const GALLONS_FILL = "fill-white dark:fill-slate-900";
const AXIS_TEXT = "fill-slate-600 text-[12px] dark:fill-slate-400";

export interface DailyChartProps {
  from: string;
  to: string;
  daily: readonly SummaryDay[];
  totals: SummaryTotals;
}

/** Daily spend (bars, left axis) and gallons (line, right axis), with a data table for screen readers and keyboard users. */
export function DailyChart({ from, to, daily, totals }: DailyChartProps) {
  const [isTableShown, setIsTableShown] = useState(false);
  const titleId = useId();
  const descriptionId = useId();
  const tableId = useId();

  // A single decimal string per point becomes a number only to be placed on screen.
  const amounts = daily.map((day) => Number(day.amount));
  const gallons = daily.map((day) => Number(day.gallons));
  const amountScale = axisScale(Math.max(0, ...amounts), MAX_TICKS);
  const gallonsScale = axisScale(Math.max(0, ...gallons), MAX_TICKS);
  const slot = daily.length === 0 ? PLOT_WIDTH : PLOT_WIDTH / daily.length;
  const barWidth = slot * BAR_SHARE;
  const xCenter = (index: number) => MARGIN.left + slot * (index + 0.5);
  const yAmount = (value: number) => MARGIN.top + PLOT_HEIGHT - (value / amountScale.max) * PLOT_HEIGHT;
  const yGallons = (value: number) => MARGIN.top + PLOT_HEIGHT - (value / gallonsScale.max) * PLOT_HEIGHT;
  const linePoints = gallons
    .map((value, index) => `${xCenter(index).toFixed(1)},${yGallons(value).toFixed(1)}`)
    .join(" ");
  const busiest = busiestDay(daily);

  const title = `Daily spend and gallons, ${formatDay(from)} to ${formatDay(to)}`;
  const description =
    `${formatCount(daily.length)} days. Spend ${formatMoney(totals.amount)} and ${formatGallons(totals.gallons)} gallons in all` +
    (busiest === null
      ? "; no spend on any day."
      : `; the highest spend was ${formatMoney(busiest.amount)} on ${formatLongDay(busiest.date)}.`);

  return (
    <div>
      <ChartLegend />
      <svg
        viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`}
        role="img"
        aria-labelledby={`${titleId} ${descriptionId}`}
        className="mt-3 h-auto w-full"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>{title}</title>
        <desc id={descriptionId}>{description}</desc>

        {/* Spend axis (left) with the grid; gallons axis (right) with its own ticks */}
        {ticks(amountScale).map((value) => {
          const y = yAmount(value);
          return (
            <g key={`spend-${String(value)}`}>
              <line
                x1={MARGIN.left}
                x2={WIDTH - MARGIN.right}
                y1={y}
                y2={y}
                className="stroke-slate-200 dark:stroke-slate-700"
                strokeWidth={1}
              />
              <text x={MARGIN.left - 8} y={y} dy="0.32em" textAnchor="end" className={AXIS_TEXT}>
                {compactMoney.format(value)}
              </text>
            </g>
          );
        })}
        {ticks(gallonsScale).map((value) => {
          const y = yGallons(value);
          return (
            <g key={`gallons-${String(value)}`}>
              <line
                x1={WIDTH - MARGIN.right}
                x2={WIDTH - MARGIN.right + 4}
                y1={y}
                y2={y}
                className={GALLONS_STROKE}
                strokeWidth={1}
              />
              <text x={WIDTH - MARGIN.right + 8} y={y} dy="0.32em" textAnchor="start" className={AXIS_TEXT}>
                {compactNumber.format(value)}
              </text>
            </g>
          );
        })}

        {/* Spend bars, one group per day (with a hover title) */}
        {daily.map((day, index) => {
          const amount = amounts[index] ?? 0;
          const y = yAmount(amount);
          return (
            <g key={day.date} data-day={day.date}>
              <title>{`${formatLongDay(day.date)}: ${formatMoney(day.amount)}, ${formatGallons(day.gallons)} gallons, ${formatCount(day.transactions)} transactions`}</title>
              {/* A transparent full-height target so the hover title works on days without spend too */}
              <rect
                x={MARGIN.left + slot * index}
                y={MARGIN.top}
                width={slot}
                height={PLOT_HEIGHT}
                fill="transparent"
              />
              <rect
                x={xCenter(index) - barWidth / 2}
                y={y}
                width={barWidth}
                height={MARGIN.top + PLOT_HEIGHT - y}
                rx={1.5}
                className={SPEND_FILL}
              />
            </g>
          );
        })}

        {/* Gallons line with round markers */}
        <polyline
          points={linePoints}
          fill="none"
          strokeWidth={2}
          strokeLinejoin="round"
          className={GALLONS_STROKE}
          pointerEvents="none"
        />
        {gallons.map((value, index) => (
          <circle
            key={index}
            cx={xCenter(index)}
            cy={yGallons(value)}
            r={3}
            strokeWidth={1.5}
            className={`${GALLONS_STROKE} ${GALLONS_FILL}`}
            pointerEvents="none"
          />
        ))}

        {/* X axis */}
        <line
          x1={MARGIN.left}
          x2={WIDTH - MARGIN.right}
          y1={MARGIN.top + PLOT_HEIGHT}
          y2={MARGIN.top + PLOT_HEIGHT}
          className="stroke-slate-400 dark:stroke-slate-500"
          strokeWidth={1}
        />
        {labelIndexes(daily.length, X_LABELS).map((index) => {
          const day = daily[index];
          if (day === undefined) return null;
          return (
            <text
              key={day.date}
              x={xCenter(index)}
              y={MARGIN.top + PLOT_HEIGHT + 18}
              textAnchor="middle"
              className={AXIS_TEXT}
            >
              {formatDay(day.date)}
            </text>
          );
        })}
        <text
          x={12}
          y={MARGIN.top + PLOT_HEIGHT / 2}
          textAnchor="middle"
          transform={`rotate(-90 12 ${String(MARGIN.top + PLOT_HEIGHT / 2)})`}
          className={AXIS_TEXT}
        >
          Spend (USD)
        </text>
        <text
          x={WIDTH - 12}
          y={MARGIN.top + PLOT_HEIGHT / 2}
          textAnchor="middle"
          transform={`rotate(90 ${String(WIDTH - 12)} ${String(MARGIN.top + PLOT_HEIGHT / 2)})`}
          className={AXIS_TEXT}
        >
          Gallons
        </text>
      </svg>

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
      {/* Always in the page for screen readers; shown on request for everyone else. */}
      <div
        id={tableId}
        // Shown, it scrolls: focusable so keyboard users can scroll it too, named for the region it becomes.
        {...(isTableShown ? { tabIndex: 0, role: "region", "aria-label": "Daily figures" } : {})}
        className={
          isTableShown
            ? "relative mt-3 max-h-96 overflow-y-auto rounded-md border border-slate-200 px-3 dark:border-slate-800"
            : "sr-only"
        }
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{`Daily spend, gallons and transactions, ${formatLongDay(from)} to ${formatLongDay(to)} (UTC days)`}</caption>
          <thead className="text-slate-600 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Day
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Spend
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Gallons
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Transactions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 text-slate-900 tabular-nums dark:divide-slate-800 dark:text-slate-100">
            {daily.map((day) => (
              <tr key={day.date} data-day-row={day.date}>
                <th scope="row" className="py-1 pr-3 font-normal">
                  {formatLongDay(day.date)}
                </th>
                <td className="py-1 pr-3 text-right">{formatMoney(day.amount)}</td>
                <td className="py-1 pr-3 text-right">{formatGallons(day.gallons)}</td>
                <td className="py-1 text-right">{formatCount(day.transactions)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ChartLegend() {
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700 dark:text-slate-300" aria-label="Legend">
      <li className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
          <rect x={2} y={2} width={12} height={12} rx={1.5} className={SPEND_FILL} />
        </svg>
        Spend per day (bars, left axis)
      </li>
      <li className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 24 16" className="h-4 w-6">
          <line x1={1} x2={23} y1={8} y2={8} strokeWidth={2} className={GALLONS_STROKE} />
          <circle cx={12} cy={8} r={3.5} strokeWidth={1.5} className={`${GALLONS_STROKE} ${GALLONS_FILL}`} />
        </svg>
        Gallons per day (line, right axis)
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
