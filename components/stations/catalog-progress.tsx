import type { CatalogProgress } from "@/lib/model";
import { formatCount } from "@/components/format/numbers";

/** The catalog walk's progress: the BFF reads the upstream's pages one by one (500 stations each). */
export function CatalogProgressBar({ progress }: { progress: CatalogProgress | null }) {
  const isWalking = progress !== null && progress.state === "loading" && progress.pages !== null;
  const pages = progress?.pages ?? null;
  const text = isWalking && pages !== null
    ? `Loading the station catalog: page ${formatCount(progress.pagesDone)} of ${formatCount(pages)} (${formatCount(progress.loaded)} of ${formatCount(progress.total ?? 0)} stations)…`
    : "Loading the station catalog…";
  return (
    <div className="space-y-2" data-testid="catalog-progress">
      <p className="text-sm text-slate-700 dark:text-slate-300">{text}</p>
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
          style={isWalking && pages !== null && pages > 0 ? { width: `${String(Math.round((100 * progress.pagesDone) / pages))}%` } : undefined}
        />
      </div>
    </div>
  );
}
