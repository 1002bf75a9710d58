import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { QueryErrorNotice } from "@/components/ui/error-notice";
import { formatCount } from "@/lib/format/numbers";
import type { StationPricesState } from "@/lib/queries/locations";

import { PRICE_CHECK_STEP, productInText, type ProductRanking } from "./product-ranking";
import { describePriceCheck, plural } from "./product-summary-text";

export interface ProductSummaryProps {
  ranking: ProductRanking;
  prices: StationPricesState;
  radiusMiles: number;
  /** Where "near" is, as the panel prints it. */
  place: string;
  onCheckMore: () => void;
  onClearPoint: ReactNode;
}

/**
 * Says plainly what a product ranking rests on: how many of the stations within the radius were checked (nearest
 * first), how far the checking has got, what waits for request budget, what was not found, and what more checking
 * costs. The sentences sit in a polite live region, so screen readers hear the progress; the bar is for the eye.
 */
export function ProductSummary({
  ranking,
  prices,
  radiusMiles,
  place,
  onCheckMore,
  onClearPoint,
}: ProductSummaryProps) {
  const name = productInText(ranking.product);
  const isChecking = prices.error === null && prices.pendingChunks > 0;
  const remaining = ranking.candidates - ranking.toCheck;
  const { status, results } = describePriceCheck(ranking, isChecking, radiusMiles);

  return (
    <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
      <div aria-live="polite" data-testid="nearby-summary">
        <p data-testid="price-check-status">
          Near <span className="font-medium text-slate-900 dark:text-slate-100">{place}</span>: {status}
        </p>
        {results === null ? null : <p data-testid="price-check-results">{results}</p>}
        {prices.deferred > 0 ? (
          <p data-testid="price-check-deferred">
            {plural(prices.deferred, "station waits", "stations wait")} for request budget: part of the Fleet Fuel
            API&apos;s budget is always kept free for your other pages and exports.{" "}
            {prices.deferred === 1 ? "It is" : "They are"} checked by {prices.deferred === 1 ? "itself" : "themselves"}{" "}
            in a few seconds.
          </p>
        ) : null}
        {ranking.notFound.length > 0 ? (
          <p data-testid="price-check-not-found">
            Not found at the Fleet Fuel API, left out (the catalog may have changed since it was loaded):{" "}
            {ranking.notFound.map((c) => `${c.station.name} (${c.station.city}, ${c.station.state})`).join("; ")}.
          </p>
        ) : null}
      </div>
      {isChecking ? (
        <div
          role="progressbar"
          aria-label={`Checking ${name} prices`}
          aria-valuemin={0}
          aria-valuemax={ranking.toCheck}
          aria-valuenow={ranking.checked}
          className="h-1.5 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
        >
          <div
            className="h-full bg-brand-700 transition-[width] dark:bg-brand-400"
            style={{
              width: `${String(ranking.toCheck === 0 ? 0 : Math.round((100 * ranking.checked) / ranking.toCheck))}%`,
            }}
          />
        </div>
      ) : null}
      {prices.error === null ? null : (
        <QueryErrorNotice
          error={prices.error}
          subject="station prices"
          onRetry={prices.refetch}
          isRetrying={prices.isRetrying}
        />
      )}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {remaining > 0 ? (
          <Button
            variant="secondary"
            className="px-3 py-1"
            onClick={onCheckMore}
            disabled={isChecking || prices.deferred > 0 || prices.error !== null}
          >
            Check {formatCount(Math.min(PRICE_CHECK_STEP, remaining))} more
          </Button>
        ) : null}
        {onClearPoint}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        The catalog lists diesel prices only. Each station checked for {name} is one request to the Fleet Fuel API, out
        of the per-minute budget your exports and other pages share; checked prices are kept for a few minutes.
      </p>
    </div>
  );
}
