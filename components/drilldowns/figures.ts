import { type PeriodChange, periodChange } from "@/components/ui/period-change";
import type { SummaryTotals } from "@/lib/model";
import { toMinorUnits } from "@/lib/model/decimal-math";
import type { DrilldownFigures } from "@/lib/model/insight-drilldowns";
import type { InsightCoverage, InsightPeriods } from "@/lib/model/insights";

/** The drill-down figures as the overview's totals, so the period change is said by the overview's one rule. */
const asTotals = (f: DrilldownFigures): SummaryTotals => ({
  transactions: f.purchases,
  gallons: f.gallons,
  amount: f.amount,
  averagePricePerGallon: f.averagePricePerGallon,
});

/**
 * Why no change against the previous period is claimed ("only … of the previous period (…) is in the local copy so
 * far"); null when it can be (the previous period is covered whole). A part of it would compare the whole period
 * with a few of its days, so no change is said then.
 */
export function previousNotCompared(previousCoverage: InsightCoverage): string | null {
  if (previousCoverage.complete) return null;
  const { requested, covered } = previousCoverage;
  const period = `the previous period (${requested.from} to ${requested.to})`;
  return covered === null
    ? `${period} is not in the local copy yet`
    : `only ${covered.from} to ${covered.to} of ${period} is in the local copy so far`;
}

/**
 * "▲ 4.2 % more spend than the previous 30 days ($1,204.10)" for a drill-down when the previous period is covered
 * whole; otherwise the sentence of previousNotCompared (no change claimed); null when there is nothing to compare.
 */
export function drilldownChange(
  current: DrilldownFigures,
  previous: DrilldownFigures | null,
  previousCoverage: InsightCoverage,
): PeriodChange | null {
  const notCompared = previousNotCompared(previousCoverage);
  if (notCompared !== null) return { arrow: null, text: `No change is shown: ${notCompared}` };
  if (previous === null || previousCoverage.covered === null) return null;
  return periodChange(asTotals(current), { ...previousCoverage.covered, totals: asTotals(previous) });
}

/**
 * The list table's caption: what it ranks, over which period, and what its change column compares with — or, while
 * the previous period is not covered whole, that there is no change column and why.
 */
export function listCaption(
  plural: string,
  label: string,
  periods: InsightPeriods,
  previousCoverage: InsightCoverage,
): string {
  const notCompared = previousNotCompared(previousCoverage);
  const change =
    notCompared === null
      ? `the change column compares with ${periods.previous.from} to ${periods.previous.to}`
      : `no change column: ${notCompared}`;
  return `${plural} by spend, ${label}; ${change}. Sort by any column.`;
}

/**
 * A table cell's change in spend, in words as well as the sign ("up 12.5 %", "down 3.0 %", "new", "same"): the
 * column's heading names the previous period. Null when the previous period is not known.
 */
export function spendChangeCell(current: string, previous: DrilldownFigures | null): string | null {
  if (previous === null) return null;
  const before = toMinorUnits(previous.amount, 2);
  const now = toMinorUnits(current, 2);
  if (before === 0n) return now === 0n ? "same" : "new";
  const percent = (Number(now - before) / Number(before)) * 100;
  const shown = Math.abs(percent).toFixed(1);
  if (shown === "0.0") return "same";
  return percent > 0 ? `up ${shown} %` : `down ${shown} %`;
}
