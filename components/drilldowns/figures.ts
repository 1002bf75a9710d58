import { type PeriodChange, periodChange } from "@/components/ui/period-change";
import { changeCell } from "@/lib/format/metric-sentences";
import type { DrilldownFigures } from "@/lib/model/insight-drilldowns";
import type { InsightCoverage, InsightPeriods } from "@/lib/model/insights";
import { NOT_SETTLING, type Settling } from "@/lib/model/metrics";

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
  settling: Settling = NOT_SETTLING,
): PeriodChange | null {
  const notCompared = previousNotCompared(previousCoverage);
  if (notCompared !== null) return { arrow: null, text: `No change is shown: ${notCompared}` };
  if (previous === null || previousCoverage.covered === null) return null;
  // The overview's metric and rule ("spend.local-date", lib/model/metrics): one verdict for the same dates.
  return periodChange({
    metric: "spend.local-date",
    current: { amount: current.amount },
    previous: { ...previousCoverage.covered, amount: previous.amount },
    settling,
  });
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
 * column's heading names the previous period. Spend counts pending purchases on both sides, so a key still settling
 * shows its change too (the page's sentence says how many are pending). Null when the previous period is not known.
 */
export function spendChangeCell(
  current: string,
  previous: DrilldownFigures | null,
  settling: Settling = NOT_SETTLING,
): string | null {
  if (previous === null) return null;
  return changeCell(current, previous.amount, settling, "spend.local-date");
}
