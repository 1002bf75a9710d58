import type { PeriodChange } from "@/components/ui/period-change";

/**
 * The change in spend against the previous period (from the local copy; nothing without one). Its own module: the
 * drill-down pages show it without the overview's chart card and its summary query (issue 26: JavaScript per page).
 */
export function PeriodChangeLine({ change }: { change: PeriodChange | null }) {
  if (change === null) return null;
  return (
    <p className="mt-2 text-sm font-medium text-slate-900 dark:text-slate-50" data-testid="period-change">
      {change.arrow === null ? null : <span aria-hidden="true">{`${change.arrow} `}</span>}
      {change.text}.
    </p>
  );
}
