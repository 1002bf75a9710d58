import type { InsightCoverage } from "@/lib/model/insights";

/**
 * What an insight's figures leave out, in the words of the BFF (lib/bff/insights/serving.ts): shown over the figures
 * whenever they do not cover the whole period, so no number is silently partial. Nothing when they do.
 */
export function CoverageNote({ coverage }: { coverage: InsightCoverage | undefined }) {
  if (coverage === undefined || coverage.complete || coverage.note === null) return null;
  return (
    <p
      role="status"
      data-testid="coverage-note"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-50"
    >
      {coverage.note}
    </p>
  );
}
