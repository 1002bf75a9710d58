/**
 * The sentences of the metrics layer (lib/model/metrics): the totals bar's wording per Status filter and the one rule
 * that compares a period with the one before. Pages, BFF replies, exports and reports take their words from here.
 */
import { toMinorUnits } from "@/lib/model/decimal-math";
import {
  DATE_BASIS_WORDS,
  type MetricId,
  METRICS,
  type PeriodAmount,
  type Settling,
  type StatusSet,
} from "@/lib/model/metrics";

import { formatCount, formatDecimal, formatMoney } from "./numbers";

type Status = "completed" | "pending" | "failed";

// ── The transactions list's totals bar ──────────────────────────────────────────────────────────────────────────────

/** What the totals bar sums for a Status filter: its labels and its sentence, so the caption matches the figures. */
export interface ListTotalsWording {
  /** The set the gallons and amount add up; null: nothing is charged (Status = Failed), no sum is shown. */
  sums: StatusSet | null;
  purchasesLabel: string;
  gallonsLabel: string;
  amountLabel: string;
  /** The sentence under the figures once they are added up. */
  caption: string;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The totals bar's wording for the list's Status filter (none, completed, pending, failed) and the count of failed
 * purchases among the rows: the caption names exactly what the purchases count and what gallons and amount add up.
 */
export function listTotalsWording(status: Status | null | undefined, failed = 0): ListTotalsWording {
  switch (status ?? undefined) {
    case "completed":
      return {
        sums: "completed",
        purchasesLabel: "Completed purchases",
        gallonsLabel: "Gallons",
        amountLabel: "Amount",
        caption: "Completed purchases: the rows' gallons and amount, added up.",
      };
    case "pending":
      return {
        sums: "pending",
        purchasesLabel: "Pending purchases",
        gallonsLabel: "Gallons",
        amountLabel: "Amount",
        caption: "Pending purchases: charged, though their amounts may still change until they complete.",
      };
    case "failed":
      return {
        sums: null,
        purchasesLabel: "Failed purchases",
        gallonsLabel: "Gallons charged",
        amountLabel: "Amount charged",
        caption:
          "Failed purchases are not charged: no fuel was bought, so nothing is added up. The amounts in the rows are what each one tried to charge.",
      };
    case undefined:
      return {
        sums: "charged",
        purchasesLabel: "Purchases (any status)",
        gallonsLabel: "Gallons charged",
        amountLabel: "Amount charged",
        caption:
          failed > 0
            ? `Purchases counts every row, the ${plural(failed, "failed one", "failed ones")} too; gallons and amount add up the completed and pending ones only (failed ones are not charged).`
            : "Purchases counts every row; gallons and amount add up the completed and pending ones (failed ones are not charged).",
      };
  }
}

// ── Comparing two periods ───────────────────────────────────────────────────────────────────────────────────────────

export type Verdict = "more" | "less" | "same" | "up-from-nothing" | "none" | "settling";

export interface ChangeSentence {
  verdict: Verdict;
  /** Decorative: the words say the same. */
  arrow: "▲" | "▼" | null;
  text: string;
}

const DAY_MS = 86_400_000;

/** "the previous 30 days", "the previous day": the period's length from its first and last day (both included). */
export function previousPeriodWords(from: string, to: string): string {
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  return days === 1 ? "the previous day" : `the previous ${String(days)} days`;
}

/** The percentage as the sentences show it: one decimal, absolute. */
const percentText = (percent: number): string => formatDecimal(Math.abs(percent), 1);

/** What a comparison needs: the current amount, the previous period and its amount, and how much is still settling. */
export type ComparedAmounts = {
  /** The definition both sides are taken with: it decides what a settling period may claim. */
  metric: MetricId;
  current: Pick<PeriodAmount, "amount">;
  previous: PeriodAmount;
  settling: Settling;
};

/** "3 days still settling (7 purchases pending)". */
const settlingWords = (settling: Settling): string =>
  `${plural(settling.days, "day", "days")} still settling (${plural(settling.purchases, "purchase", "purchases")} pending)`;

/** Whether a period still settling may be compared: only under a metric that counts pending purchases on both sides. */
const comparesWhileSettling = (metric: MetricId): boolean => METRICS[metric].statuses !== "completed";

/**
 * The one rule for "▲ 4.2 % more spend than the previous 30 days ($1,204.10)", the same definition on both sides.
 * While the current period holds pending purchases it is still settling: a completed-only metric (the tax report)
 * claims no change ("3 days still settling") — its current side lacks purchases that the previous side has completed,
 * so a fall would be only that; a charged metric (completed + pending on both sides, like for like) says the change
 * and that it may still move ("; 3 days still settling (7 purchases pending), so it may still change").
 */
export function compareSpend(c: ComparedAmounts): ChangeSentence {
  const period = previousPeriodWords(c.previous.from, c.previous.to);
  const was = formatMoney(c.previous.amount);
  const settling = c.settling.purchases > 0;
  if (settling && !comparesWhileSettling(c.metric))
    return {
      verdict: "settling",
      arrow: null,
      text: `${settlingWords(c.settling)}: no change against ${period} (${was}) is claimed until they complete`,
    };
  const change = changeOf(c, period, was);
  return settling
    ? { ...change, text: `${change.text}; ${settlingWords(c.settling)}, so it may still change` }
    : change;
}

function changeOf(c: ComparedAmounts, period: string, was: string): ChangeSentence {
  const before = toMinorUnits(c.previous.amount, 2);
  const now = toMinorUnits(c.current.amount, 2);
  if (before === 0n)
    return now === 0n
      ? { verdict: "none", arrow: null, text: `No spend, as in ${period}` }
      : { verdict: "up-from-nothing", arrow: "▲", text: `Spend is up from nothing in ${period}` };
  const percent = (Number(now - before) / Number(before)) * 100;
  const shown = percentText(percent);
  if (shown === "0.0") return { verdict: "same", arrow: null, text: `The same spend as ${period} (${was})` };
  return percent > 0
    ? { verdict: "more", arrow: "▲", text: `${shown} % more spend than ${period} (${was})` }
    : { verdict: "less", arrow: "▼", text: `${shown} % less spend than ${period} (${was})` };
}

/**
 * The period and basis a list of figures covers, for its caption: "2026-10-29 to 2026-11-27, by each purchase's
 * local date; completed and pending purchases (failed ones are not charged)."
 */
export function metricPeriodCaption(metric: MetricId, from: string, to: string): string {
  const m = METRICS[metric];
  const statuses =
    m.statuses === "completed"
      ? "completed purchases only"
      : "completed and pending purchases (failed ones are not charged)";
  return `${from} to ${to}, ${DATE_BASIS_WORDS[m.basis]}; ${statuses}.`;
}

/** A table cell's change ("up 12.5 %", "down 3.0 %", "new", "same", "settling"): the column heading names the period. */
export function changeCell(current: string, previous: string, settling: Settling, metric: MetricId): string {
  if (settling.purchases > 0 && !comparesWhileSettling(metric)) return "settling";
  const before = toMinorUnits(previous, 2);
  const now = toMinorUnits(current, 2);
  if (before === 0n) return now === 0n ? "same" : "new";
  const percent = (Number(now - before) / Number(before)) * 100;
  const shown = percentText(percent);
  if (shown === "0.0") return "same";
  return percent > 0 ? `up ${shown} %` : `down ${shown} %`;
}
