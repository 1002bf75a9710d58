import { formatLongDay } from "@/lib/format/dates";
import { formatCount, formatGallons, formatMoney } from "@/lib/format/numbers";
import type { SummaryDay } from "@/lib/model";

import { AXIS_NAME_INSET, type ChartGeometry, TICK_LABEL_GAP, X_LABEL_OFFSET } from "./daily-chart-geometry";

// Series differ by shape as well as colour: spend is drawn as bars (squares in the legend), gallons as a line with
// round markers.
export const SPEND_FILL = "fill-brand-600 dark:fill-brand-400";
export const GALLONS_STROKE = "stroke-sky-700 dark:stroke-sky-300";
export const GALLONS_FILL = "fill-white dark:fill-slate-900";
// 12 CSS px at every width: the SVG is drawn in its box's pixels (daily-chart-geometry).
const AXIS_TEXT = "fill-slate-600 text-[12px] dark:fill-slate-400";
const TICK_MARK = 4;

/**
 * The chart as one SVG image, named by its title and described by a sentence (for screen readers). Its viewBox is the
 * box's size in CSS px, so nothing in it scales; until the box is measured (the server's HTML) it fits the default.
 */
export function DailyChartSvg(props: {
  daily: readonly SummaryDay[];
  geometry: ChartGeometry;
  title: string;
  description: string;
  titleId: string;
  descriptionId: string;
}) {
  const g = props.geometry;
  return (
    <svg
      viewBox={`0 0 ${String(g.width)} ${String(g.height)}`}
      role="img"
      aria-labelledby={`${props.titleId} ${props.descriptionId}`}
      className="block h-full w-full"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={props.titleId}>{props.title}</title>
      <desc id={props.descriptionId}>{props.description}</desc>
      <YAxes geometry={g} />
      <SpendBars daily={props.daily} geometry={g} />
      <GallonsLine geometry={g} />
      <XAxis geometry={g} />
    </svg>
  );
}

/** One tick of a y axis: its line (the spend axis's grid line, the gallons axis's mark) and its label beside it. */
function YTick(props: {
  axis: "spend" | "gallons";
  label: string;
  y: number;
  line: { x1: number; x2: number; className: string };
  labelX: number;
  anchor: "start" | "end";
}) {
  return (
    <g>
      <line
        x1={props.line.x1}
        x2={props.line.x2}
        y1={props.y}
        y2={props.y}
        className={props.line.className}
        strokeWidth={1}
      />
      <text
        x={props.labelX}
        y={props.y}
        dy="0.32em"
        textAnchor={props.anchor}
        className={AXIS_TEXT}
        data-tick={props.axis}
      >
        {props.label}
      </text>
    </g>
  );
}

/** Spend axis (left) with the grid; gallons axis (right) with its own ticks; both named. */
function YAxes({ geometry: g }: { geometry: ChartGeometry }) {
  const middle = g.margin.top + g.plotHeight / 2;
  const plotRight = g.width - g.margin.right;
  const rightName = g.width - AXIS_NAME_INSET;
  return (
    <>
      {g.amountTicks.map((tick) => (
        <YTick
          key={`spend-${String(tick.value)}`}
          axis="spend"
          label={tick.label}
          y={tick.y}
          line={{ x1: g.margin.left, x2: plotRight, className: "stroke-slate-200 dark:stroke-slate-700" }}
          labelX={g.margin.left - TICK_LABEL_GAP}
          anchor="end"
        />
      ))}
      {g.gallonsTicks.map((tick) => (
        <YTick
          key={`gallons-${String(tick.value)}`}
          axis="gallons"
          label={tick.label}
          y={tick.y}
          line={{ x1: plotRight, x2: plotRight + TICK_MARK, className: GALLONS_STROKE }}
          labelX={plotRight + TICK_LABEL_GAP}
          anchor="start"
        />
      ))}
      <text
        x={AXIS_NAME_INSET}
        y={middle}
        textAnchor="middle"
        transform={`rotate(-90 ${String(AXIS_NAME_INSET)} ${String(middle)})`}
        className={AXIS_TEXT}
        data-axis-name="spend"
      >
        Spend (USD)
      </text>
      <text
        x={rightName}
        y={middle}
        textAnchor="middle"
        transform={`rotate(90 ${String(rightName)} ${String(middle)})`}
        className={AXIS_TEXT}
        data-axis-name="gallons"
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
        <rect
          x={g.margin.left + g.slot * index}
          y={g.margin.top}
          width={g.slot}
          height={g.plotHeight}
          fill="transparent"
        />
        <rect
          x={g.xCenter(index) - g.barWidth / 2}
          y={y}
          width={g.barWidth}
          height={g.baseline - y}
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

/** The x axis and the day labels that fit (geometry.dayLabels: thinned by width, the last day always). */
function XAxis({ geometry: g }: { geometry: ChartGeometry }) {
  return (
    <>
      <line
        x1={g.margin.left}
        x2={g.width - g.margin.right}
        y1={g.baseline}
        y2={g.baseline}
        className="stroke-slate-400 dark:stroke-slate-500"
        strokeWidth={1}
      />
      {g.dayLabels.map((label) => (
        <text
          key={label.index}
          x={label.x}
          y={g.baseline + X_LABEL_OFFSET}
          textAnchor="middle"
          className={AXIS_TEXT}
          data-tick="day"
        >
          {label.label}
        </text>
      ))}
    </>
  );
}
