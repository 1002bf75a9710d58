/** A grey placeholder bar while data loads; purely visual (pair it with a text for screen readers). */
export function Skeleton({ className = "" }: { className?: string }) {
  return (
    <div aria-hidden="true" className={`animate-pulse rounded bg-slate-200 dark:bg-slate-700 ${className}`.trim()} />
  );
}
