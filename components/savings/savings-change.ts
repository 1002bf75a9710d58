import { formatMoney } from "@/lib/format/numbers";
import { fromMinorUnits, toMinorUnits } from "@/lib/model/decimal-math";
import type { LocalDateRange } from "@/lib/model/insights";

/**
 * The change of the missed savings against the previous period, in words ("$12.30 more than the previous 31 days
 * ($40.00)"); the arrow only repeats the words, so neither colour nor shape carries the meaning alone.
 */
export interface SavingsChange {
  /** Decorative: the words say the same. */
  arrow: "▲" | "▼" | null;
  text: string;
}

const DAY_MS = 86_400_000;

function periodWords(range: LocalDateRange): string {
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS) + 1;
  return days === 1 ? "the previous day" : `the previous ${String(days)} days`;
}

export function savingsChange(current: string, previous: string, previousRange: LocalDateRange): SavingsChange {
  const period = periodWords(previousRange);
  const difference = toMinorUnits(current, 2) - toMinorUnits(previous, 2);
  const was = formatMoney(previous);
  if (difference === 0n) return { arrow: null, text: `The same as ${period} (${was})` };
  const by = formatMoney(fromMinorUnits(difference < 0n ? -difference : difference, 2));
  return difference > 0n
    ? { arrow: "▲", text: `${by} more than ${period} (${was})` }
    : { arrow: "▼", text: `${by} less than ${period} (${was})` };
}
