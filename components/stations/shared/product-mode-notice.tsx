"use client";

import { QueryErrorNotice } from "@/components/ui/error-notice";

import { productInText } from "./product-ranking";
import type { ProductMode } from "./use-product-mode";

/** Why the product chosen in the URL does not rank (yet). */
export function ProductModeNotice({ mode }: { mode: Exclude<ProductMode, { status: "ready" }> }) {
  const name = productInText(mode.product);
  if (mode.status === "failed")
    return (
      <QueryErrorNotice
        error={mode.error}
        subject="station prices"
        onRetry={mode.onRetry}
        isRetrying={mode.isRetrying}
      />
    );
  if (mode.status === "learning") {
    return (
      <p
        role="status"
        aria-busy="true"
        className="text-sm text-slate-700 dark:text-slate-300"
        data-testid="nearby-summary"
      >
        Finding out whether the stations&apos; details give {name} prices…
      </p>
    );
  }
  return (
    <p
      role="status"
      className="rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-700 dark:bg-sky-950/60 dark:text-sky-50"
      data-testid="product-unavailable"
    >
      This Fleet Fuel API gives one price per station (your diesel price), so {name} prices cannot be compared. The list
      ranks diesel.
    </p>
  );
}
