import { formatDay, formatLongDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import { onFirstUse } from "@/lib/format/on-first-use";
import type { SummaryDay } from "@/lib/model";

import { labelIndexes, ticks } from "./chart-scale";
import { BASELINE, type ChartGeometry, HEIGHT, MARGIN, PLOT_HEIGHT, WIDTH } from "./daily-chart-geometry";

const X_LABELS = 6;

// Built on first use, not at module load (lib/format/on-first-use explains the cost).
const compactMoney = onFirstUse(
  () =>
    new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
      notation: "compact",
      maximumFractionDigits: 1,
    }),
);
const compactNumber = onFirstUse(
  () => new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }),
);

// Series differ by shape as well as colour: spend is drawn as bars (squares in the legend), gallons as a line with
// round markers.
export const SPEND_FILL = "fill-brand-600 dark:fill-brand-400";
export const GALLONS_STROKE = "stroke-sky-700 dark:stroke-sky-300";
export const GALLONS_FILL = "fill-white dark:fill-slate-900";
const AXIS_TEXT = "fill-slate-600 text-[12px] dark:fill-slate-400";

/** The chart as one SVG image, named by its title and described by a sentence (for screen readers). */
export function DailyChartSvg(props: {
  daily: readonly SummaryDay[];
  geometry: ChartGeometry;
  title: string;
  description: string;
  titleId: string;
  descriptionId: string;
}) {
  return (
    <svg
      viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`}
      role="img"
      aria-labelledby={`${props.titleId} ${props.descriptionId}`}
      className="mt-3 h-auto w-full"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={props.titleId}>{props.title}</title>
      <desc id={props.descriptionId}>{props.description}</desc>
      <YAxes geometry={props.geometry} />
      <SpendBars daily={props.daily} geometry={props.geometry} />
      <GallonsLine geometry={props.geometry} />
      <XAxis daily={props.daily} geometry={props.geometry} />
    </svg>
  );
}

/** Spend axis (left) with the grid; gallons axis (right) with its own ticks; both named. */
function YAxes({ geometry: g }: { geometry: ChartGeometry }) {
  const middle = MARGIN.top + PLOT_HEIGHT / 2;
  return (
    <>
      {ticks(g.amountScale).map((value) => {
        const y = g.yAmount(value);
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
              {compactMoney().format(value)}
            </text>
          </g>
        );
      })}
      {ticks(g.gallonsScale).map((value) => {
        const y = g.yGallons(value);
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
              {compactNumber().format(value)}
            </text>
          </g>
        );
      })}
      <text x={12} y={middle} textAnchor="middle" transform={`rotate(-90 12 ${String(middle)})`} className={AXIS_TEXT}>
        Spend (USD)
      </text>
      <text
        x={WIDTH - 12}
        y={middle}
        textAnchor="middle"
        transform={`rotate(90 ${String(WIDTH - 12)} ${String(middle)})`}
        className={AXIS_TEXT}
      >
        Gallons
      </text>
    </>
  );
}

/** Spend bars, one group per day (with a hover title). */
function SpendBars({ daily, geometry: g }: { daily: readonly SummaryDay[]; geometry: ChartGeometry }) {
  return daily.map((day, index) => {
    const y = g.yAmount(g.amounts[index] ?? 0);
    return (
      <g key={day.date} data-day={day.date}>
        <title>{`${formatLongDay(day.date)}: ${formatMoney(day.amount)}, ${formatGallons(day.gallons)} gallons, ${formatCount(day.transactions)} transactions`}</title>
        {/* A transparent full-height target so the hover title works on days without spend too */}
        <rect x={MARGIN.left + g.slot * index} y={MARGIN.top} width={g.slot} height={PLOT_HEIGHT} fill="transparent" />
        <rect
          x={g.xCenter(index) - g.barWidth / 2}
          y={y}
          width={g.barWidth}
          height={BASELINE - y}
          rx={1.5}
          className={SPEND_FILL}
        />
      </g>
    );
  });
}

/** Gallons line with round markers. */
function GallonsLine({ geometry: g }: { geometry: ChartGeometry }) {
  return (
    <>
      <polyline
        points={g.linePoints}
        fill="none"
        strokeWidth={2}
        strokeLinejoin="round"
        className={GALLONS_STROKE}
        pointerEvents="none"
      />
      {g.gallons.map((value, index) => (
        <circle
          key={index}
          cx={g.xCenter(index)}
          cy={g.yGallons(value)}
          r={3}
          strokeWidth={1.5}
          className={`${GALLONS_STROKE} ${GALLONS_FILL}`}
          pointerEvents="none"
        />
      ))}
    </>
  );
}

/** The x axis and about X_LABELS day labels (the last day always). */
function XAxis({ daily, geometry: g }: { daily: readonly SummaryDay[]; geometry: ChartGeometry }) {
  return (
    <>
      <line
        x1={MARGIN.left}
        x2={WIDTH - MARGIN.right}
        y1={BASELINE}
        y2={BASELINE}
        className="stroke-slate-400 dark:stroke-slate-500"
        strokeWidth={1}
      />
      {labelIndexes(daily.length, X_LABELS).map((index) => {
        const day = daily[index];
        if (day === undefined) return null;
        return (
          <text key={day.date} x={g.xCenter(index)} y={BASELINE + 18} textAnchor="middle" className={AXIS_TEXT}>
            {formatDay(day.date)}
          </text>
        );
      })}
    </>
  );
}
