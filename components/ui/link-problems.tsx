/**
 * What of a shared link was not used, and what is shown instead (never dropped silently): above a page's form or
 * filters. A polite status (read once when it appears), amber with a text heading, not colour alone.
 */
export function LinkProblems({ problems, testId }: { problems: readonly string[]; testId?: string }) {
  if (problems.length === 0) return null;
  return (
    <div
      role="status"
      data-testid={testId ?? "link-problems"}
      className="w-full space-y-1 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-50"
    >
      <p className="font-medium">Parts of this link could not be used</p>
      {problems.map((problem) => (
        <p key={problem}>{problem}</p>
      ))}
    </div>
  );
}
