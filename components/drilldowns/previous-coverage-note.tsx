import { CoverageNote } from "@/components/insights/coverage-note";
import type { InsightCoverage } from "@/lib/model/insights";

/**
 * The previous period's coverage sentence, said as about the previous period (it is what the change would compare
 * with), when the current figures are whole but the previous ones are not. When the current figures are partial too,
 * their own note already says the history is still loading, so one sentence is enough.
 */
export function PreviousCoverageNote({ current, previous }: { current: InsightCoverage; previous: InsightCoverage }) {
  if (!current.complete || previous.complete || previous.note === null) return null;
  const { from, to } = previous.requested;
  return (
    <CoverageNote
      coverage={{ ...previous, note: `The previous period (${from} to ${to}), for the change: ${previous.note}` }}
    />
  );
}
