import { formatCount } from "@/lib/format/numbers";
import type { CatalogProgress } from "@/lib/model";

/** The catalog walk's progress: the BFF reads the upstream's pages one by one (500 stations each). */
export function CatalogProgressBar({ progress }: { progress: CatalogProgress | null }) {
  const isWalking = progress !== null && progress.state === "loading" && progress.pages !== null;
  const pages = progress?.pages ?? null;
  const text =
    isWalking && pages !== null
      ? `Loading the station catalog: page ${formatCount(progress.pagesDone)} of ${formatCount(pages)} (${formatCount(progress.loaded)} of ${formatCount(progress.total ?? 0)} stations)…`
      : "Loading the station catalog…";
  const wait = progress?.budgetWait ?? null;
  return (
    <div className="space-y-2" data-testid="catalog-progress">
      <p className="text-sm text-slate-700 dark:text-slate-300">{text}</p>
      {wait === null ? null : (
        <p
          role="status"
          data-testid="catalog-budget-wait"
          className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-50"
        >
          {wait.reason === "export"
            ? "Waiting for the request budget: an export of your transactions is running with the same API key and uses it. "
            : "Waiting for the request budget: other requests of your API key use it. "}
          The Fleet Fuel API allows {formatCount(wait.budget)} requests per {describeWindow(wait.windowSeconds)}; the
          catalog loads as requests free up
          {wait.reason === "export" ? ", sharing them with the export" : ""}.
        </p>
      )}
      <div
        role="progressbar"
        aria-label="Station catalog"
        aria-valuemin={0}
        aria-valuemax={isWalking && pages !== null ? pages : undefined}
        aria-valuenow={isWalking ? progress.pagesDone : undefined}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={`h-full bg-brand-700 transition-[width] dark:bg-brand-400 ${isWalking ? "" : "w-1/3 animate-pulse"}`}
          style={
            isWalking && pages !== null && pages > 0
              ? { width: `${String(Math.round((100 * progress.pagesDone) / pages))}%` }
              : undefined
          }
        />
      </div>
    </div>
  );
}

/** "minute" for the usual 60 s window, "12 seconds" otherwise. */
function describeWindow(seconds: number): string {
  if (seconds === 60) return "minute";
  return seconds === 1 ? "second" : `${formatCount(seconds)} seconds`;
}
