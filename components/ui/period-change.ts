import { type ComparedAmounts, compareSpend } from "@/lib/format/metric-sentences";

/**
 * A page's change in spend against the period of equal length just before ("▲ 4.2 % more spend than the previous 30
 * days"), said by the metrics layer's one rule (lib/format/metric-sentences `compareSpend`): the same definition on
 * both sides, and "3 days still settling" instead of a change while the current period has pending purchases. The
 * direction is said in words (more, less, the same), the arrow only repeats it, so neither colour nor shape carries
 * the meaning alone. Null when there is nothing to compare (no local copy of the previous period).
 */
export interface PeriodChange {
  /** Decorative: the words say the same. */
  arrow: "▲" | "▼" | null;
  text: string;
}

export function periodChange(comparison: ComparedAmounts | null | undefined): PeriodChange | null {
  if (comparison === null || comparison === undefined) return null;
  const { arrow, text } = compareSpend(comparison);
  return { arrow, text };
}
