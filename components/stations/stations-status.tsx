"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorNotice } from "@/components/ui/error-notice";
import { CardError } from "@/components/ui/query-states";
import { Skeleton } from "@/components/ui/skeleton";
import { describeAge } from "@/lib/format/dates";
import { formatCount } from "@/lib/format/numbers";
import type { CatalogProgress } from "@/lib/model";
import type { useCatalog } from "@/lib/queries/locations";

import { CatalogProgressBar } from "./catalog-progress";
import { useNow } from "./shared/use-now";

type CatalogQuery = ReturnType<typeof useCatalog>;

/** The first load: how far the catalog has got, over the map's place. */
export function CatalogLoading({ progress }: { progress: CatalogProgress | null }) {
  return (
    <div aria-busy="true" className="space-y-4">
      <CatalogProgressBar progress={progress} />
      <Skeleton className="h-[60vh] min-h-[24rem] w-full rounded-xl" />
    </div>
  );
}

/** The catalog could not be had at all (a missing scope said as such). */
export function CatalogError({ catalog }: { catalog: CatalogQuery }) {
  if (!catalog.isError) return null;
  return (
    <Card title="Station catalog">
      {catalog.error.status === 403 ? (
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          The map needs the <strong>locations</strong> scope on your API key. Ask your fleet administrator for a key
          that includes it, then sign in again.
        </p>
      ) : null}
      <CardError
        error={catalog.error}
        subject="stations"
        onRetry={() => void catalog.refetch()}
        isRetrying={catalog.isFetching}
      />
    </Card>
  );
}

/** How many stations are shown, how old the catalog is, its refresh, and what failed since it loaded. */
export function CatalogStatus({
  catalog,
  shownCount,
  totalCount,
  tilesFailed,
}: {
  catalog: CatalogQuery;
  shownCount: number;
  totalCount: number;
  tilesFailed: boolean;
}) {
  const clock = useNow();
  const age = describeAge(catalog.dataUpdatedAt, Math.max(clock, catalog.dataUpdatedAt));
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
        <p data-testid="station-count" aria-live="polite">
          Showing <strong className="text-slate-900 dark:text-slate-50">{formatCount(shownCount)}</strong> of{" "}
          {formatCount(totalCount)} stations
        </p>
        <p data-testid="catalog-age">
          Catalog loaded {age}
          <span className="sr-only"> (prices as of then)</span>
        </p>
        <Button
          variant="secondary"
          className="px-3 py-1"
          onClick={() => void catalog.refetch()}
          disabled={catalog.isFetching}
        >
          {catalog.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      </div>
      {catalog.isError ? (
        <ErrorNotice
          message={`The catalog could not be refreshed: ${catalog.error.message} The stations below are from ${age}.`}
        />
      ) : null}
      {tilesFailed ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          The map tile server could not be reached; the map shows its built-in basemap.
        </p>
      ) : null}
    </>
  );
}
