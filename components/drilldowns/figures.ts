import { type PeriodChange, periodChange } from "@/components/ui/period-change";
import type { SummaryTotals } from "@/lib/model";
import { toMinorUnits } from "@/lib/model/decimal-math";
import type { DrilldownFigures } from "@/lib/model/insight-drilldowns";
import type { InsightCoverage } from "@/lib/model/insights";

/** The drill-down figures as the overview's totals, so the period change is said by the overview's one rule. */
const asTotals = (f: DrilldownFigures): SummaryTotals => ({
  transactions: f.purchases,
  gallons: f.gallons,
  amount: f.amount,
  averagePricePerGallon: f.averagePricePerGallon,
});

/**
 * "▲ 4.2 % more spend than the previous 30 days ($1,204.10)" for a drill-down, over the days the previous figures
 * cover (null when they cover none: no change is claimed).
 */
export function drilldownChange(
  current: DrilldownFigures,
  previous: DrilldownFigures | null,
  previousCoverage: InsightCoverage,
): PeriodChange | null {
  if (previous === null || previousCoverage.covered === null) return null;
  return periodChange(asTotals(current), { ...previousCoverage.covered, totals: asTotals(previous) });
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
