import { formatMoney } from "@/lib/format/numbers";
import { onFirstUse } from "@/lib/format/on-first-use";
import type { SummaryTotals, TransactionSummaryReply } from "@/lib/model";
import { toMinorUnits } from "@/lib/model/decimal-math";

/**
 * The overview's change in spend against the period of equal length just before ("▲ 4.2 % more spend than the
 * previous 30 days"). The direction is said in words (more, less, the same), the arrow only repeats it, so neither
 * colour nor shape carries the meaning alone. Null when the previous period is not known (no local copy yet).
 */
export interface PeriodChange {
  /** Decorative: the words say the same. */
  arrow: "▲" | "▼" | null;
  text: string;
}

const DAY_MS = 86_400_000;
// Built on first use, as lib/format's formats are (no Intl object while the page's scripts load).
const percentFormat = onFirstUse(
  () => new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
);

/** "the previous 30 days", "the previous day": the period's length from its first and last day (both included). */
function previousPeriod(from: string, to: string): string {
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  return days === 1 ? "the previous day" : `the previous ${String(days)} days`;
}

export function periodChange(
  current: SummaryTotals,
  previous: TransactionSummaryReply["previous"] | undefined,
): PeriodChange | null {
  if (previous === null || previous === undefined) return null;
  const period = previousPeriod(previous.from, previous.to);
  const before = toMinorUnits(previous.totals.amount, 2);
  const now = toMinorUnits(current.amount, 2);
  const was = formatMoney(previous.totals.amount);
  if (before === 0n) {
    return now === 0n
      ? { arrow: null, text: `No spend, as in ${period}` }
      : { arrow: "▲", text: `Spend is up from nothing in ${period}` };
  }
  const percent = (Number(now - before) / Number(before)) * 100;
  const shown = percentFormat().format(Math.abs(percent));
  if (shown === "0.0") return { arrow: null, text: `The same spend as ${period} (${was})` };
  return percent > 0
    ? { arrow: "▲", text: `${shown} % more spend than ${period} (${was})` }
    : { arrow: "▼", text: `${shown} % less spend than ${period} (${was})` };
}
