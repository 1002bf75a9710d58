"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import type { Station } from "@/lib/model";
import { STATION_PRODUCTS, type StationProduct } from "@/lib/model/products";
import { useCatalog, useCatalogProgress, useStationPrices, useStationProducts } from "@/lib/queries/locations";
import { formatCount, formatUnitPrice } from "@/lib/format/numbers";
import { CardError } from "@/components/ui/query-states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorNotice } from "@/components/ui/error-notice";
import { Skeleton } from "@/components/ui/skeleton";
import { CatalogProgressBar } from "./catalog-progress";
import { StationFilters } from "./filters";
import { describeAge } from "./format";
import { PriceLegend } from "./legend";
import { findWithin, rankCheapest, rankNearby, sortByDistance, type LatLng, type StationWithin } from "./nearby";
import { NearbyPanel, type ProductMode } from "./nearby-panel";
import {
  lookupsFromReplies,
  PRICE_CHECK_STEP,
  priceCheckChunks,
  productInText,
  productName,
  rankByProduct,
} from "./product-ranking";
import { StationMap } from "./station-map";
import { buildStationsOnMap } from "./station-points";
import { useNow } from "./use-now";
import { useStationsView } from "./use-stations-view";
import {
  DEFAULT_PRODUCT,
  filterStations,
  formatLatLng,
  stationsInView,
  type ColourScale,
  type StationsView as View,
  type ViewBounds,
} from "./view-state";

const EMPTY: readonly Station[] = [];
const NO_CANDIDATES: readonly StationWithin[] = [];
const NO_PRODUCTS: readonly StationProduct[] = [];

/** What decides which stations' detail prices are checked: a change starts again from the nearest PRICE_CHECK_STEP. */
function checkScopeOf(view: View): string {
  return [
    view.near === null ? "" : formatLatLng(view.near),
    view.brand ?? "",
    view.state ?? "",
    view.search,
    view.product,
  ].join("|");
}

export interface StationsViewProps {
  /** The tile URL template (TILE_URL), handed over by the server page; null: the vector basemap only. */
  tileUrl: string | null;
  tileAttribution: string | null;
}

/**
 * The stations page: the whole catalog on a map coloured by price (relative classes of what is shown), filters in the
 * URL, "cheapest near here" as a ranked table, and the catalog's loading progress, age and refresh failures.
 */
export function StationsView({ tileUrl, tileAttribution }: StationsViewProps) {
  const { view, setView } = useStationsView();
  const catalog = useCatalog();
  const progress = useCatalogProgress(catalog.isPending);
  const [tilesFailed, setTilesFailed] = useState(false);
  const mapBox = useRef<HTMLDivElement>(null);
  const clock = useNow();

  const all = catalog.data?.stations ?? EMPTY;
  const now = catalog.data?.receivedAt ?? 0;
  const shown = useMemo(() => filterStations(all, view), [all, view]);
  // The map's view, for the "stations in view" colour scale (null until the map reports it).
  const [viewBounds, setViewBounds] = useState<ViewBounds | null>(null);
  const inView = useMemo(
    () => (view.scale === "view" && viewBounds !== null ? stationsInView(shown, viewBounds) : null),
    [view.scale, viewBounds, shown],
  );
  const onMap = useMemo(() => buildStationsOnMap(shown, now, inView ?? shown), [shown, now, inView]);
  const brands = useMemo(() => [...new Set(all.map((s) => s.brand))].sort(), [all]);
  const states = useMemo(() => [...new Set(all.map((s) => s.state))].sort(), [all]);
  const ranking = useMemo(
    () =>
      view.near === null ? rankCheapest(shown, view.count) : rankNearby(shown, view.near, view.radius, view.count),
    [shown, view.near, view.radius, view.count],
  );
  const unpricedCount = useMemo(() => shown.reduce((n, s) => n + (s.price === null ? 1 : 0), 0), [shown]);

  // Another product than the catalog's diesel: offered only when a real station detail prices several (the BFF looks).
  const productsInfo = useStationProducts(catalog.data !== undefined);
  const products = useMemo(() => {
    const info = productsInfo.data;
    if (!info?.hasSeveralPrices) return NO_PRODUCTS;
    return STATION_PRODUCTS.filter((product) => product === DEFAULT_PRODUCT || info.products.includes(product));
  }, [productsInfo.data]);
  const wantsProduct = view.product !== DEFAULT_PRODUCT;
  const isProductReady = wantsProduct && products.includes(view.product);
  const candidates = useMemo(
    () =>
      isProductReady && view.near !== null ? sortByDistance(findWithin(shown, view.near, view.radius)) : NO_CANDIDATES,
    [isProductReady, shown, view.near, view.radius],
  );
  // The nearest PRICE_CHECK_STEP are checked; "Check more" adds a step. A new point, filter or product starts again.
  const checkScope = checkScopeOf(view);
  const [checks, setChecks] = useState({ scope: checkScope, limit: PRICE_CHECK_STEP });
  if (checks.scope !== checkScope) setChecks({ scope: checkScope, limit: PRICE_CHECK_STEP });
  const checkLimit = checks.scope === checkScope ? checks.limit : PRICE_CHECK_STEP;
  const chunks = useMemo(() => priceCheckChunks(candidates, checkLimit), [candidates, checkLimit]);
  const prices = useStationPrices(chunks);
  const lookups = useMemo(() => lookupsFromReplies(prices.replies), [prices.replies]);
  const productRanking = useMemo(
    () =>
      isProductReady && view.near !== null
        ? rankByProduct(candidates, lookups, view.product, checkLimit, view.count)
        : null,
    [isProductReady, view.near, view.product, view.count, candidates, lookups, checkLimit],
  );
  const onCheckMore = useCallback(() => {
    setChecks((current) => ({ scope: current.scope, limit: current.limit + PRICE_CHECK_STEP }));
  }, []);
  const productMode = useMemo((): ProductMode | null => {
    if (!wantsProduct) return null;
    if (productsInfo.isError)
      return {
        status: "failed",
        product: view.product,
        error: productsInfo.error,
        onRetry: () => void productsInfo.refetch(),
        isRetrying: productsInfo.isFetching,
      };
    if (productsInfo.data === undefined) return { status: "learning", product: view.product };
    if (!isProductReady) return { status: "unavailable", product: view.product };
    return { status: "ready", product: view.product, ranking: productRanking, prices, onCheckMore };
  }, [wantsProduct, productsInfo, view.product, isProductReady, productRanking, prices, onCheckMore]);
  const describeProduct = useMemo(() => {
    if (!isProductReady) return null;
    const product = view.product;
    return (id: string): string => {
      const lookup = lookups.get(id);
      if (lookup === undefined)
        return `${productName(product)} price not checked (only the stations nearest your point are).`;
      if (lookup.kind === "not_found") return `${productName(product)}: station not found at the Fleet Fuel API.`;
      const price = lookup.prices[product] ?? null;
      return price === null ? `No ${productInText(product)}` : `${productName(product)} ${formatUnitPrice(price)}`;
    };
  }, [isProductReady, view.product, lookups]);

  const onDrawn = useCallback((count: number) => {
    mapBox.current?.setAttribute("data-drawn-count", String(count));
  }, []);
  const onPickPoint = useCallback(
    (point: LatLng) => {
      setView({ near: point, nearLabel: formatLatLng(point).replace(",", ", ") }, "replace");
    },
    [setView],
  );
  // Selecting is exploring: it replaces the history entry (Back leaves the page's view, not each station clicked).
  const selectedId = view.selected;
  const setSelectedId = useCallback(
    (id: string | null) => {
      setView({ selected: id }, "replace");
    },
    [setView],
  );
  const onScaleChange = useCallback(
    (scale: ColourScale) => {
      setView({ scale });
    },
    [setView],
  );
  // A row chosen in the ranked list: its popup opens on the map, so the map comes into view (on narrow screens it is
  // above the list; on wide ones it stays in view by itself, see the sticky column below).
  const onSelectFromList = useCallback(
    (id: string) => {
      setSelectedId(id);
      mapBox.current?.scrollIntoView({ block: "nearest" });
    },
    [setSelectedId],
  );
  const onTilesFailed = useCallback(() => {
    setTilesFailed(true);
  }, []);
  const selected = selectedId === null ? null : (shown.find((s) => s.id === selectedId) ?? null);

  if (catalog.isPending) {
    return (
      <div aria-busy="true" className="space-y-4">
        <CatalogProgressBar progress={progress.data ?? null} />
        <Skeleton className="h-[60vh] min-h-[24rem] w-full rounded-xl" />
      </div>
    );
  }
  if (catalog.isError && catalog.data === undefined) {
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

  return (
    <div className="space-y-4">
      <StationFilters view={view} brands={brands} states={states} products={products} onChange={setView} />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
        <p data-testid="station-count" aria-live="polite">
          Showing <strong className="text-slate-900 dark:text-slate-50">{formatCount(shown.length)}</strong> of{" "}
          {formatCount(all.length)} stations
        </p>
        <p data-testid="catalog-age">
          Catalog loaded {describeAge(catalog.dataUpdatedAt, Math.max(clock, catalog.dataUpdatedAt))}
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
          message={`The catalog could not be refreshed: ${catalog.error.message} The stations below are from ${describeAge(catalog.dataUpdatedAt, Math.max(clock, catalog.dataUpdatedAt))}.`}
        />
      ) : null}
      {tilesFailed ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          The map tile server could not be reached; the map shows its built-in basemap.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        {/* Sticky on wide screens: scrolling down the ranked list keeps the map and the chosen station's popup in view. */}
        <div className="space-y-4 lg:sticky lg:top-4 lg:col-span-2 lg:self-start">
          <div
            ref={mapBox}
            data-testid="station-map"
            role="region"
            aria-label="Map of the stations shown, coloured by price. The ranked list beside it gives the same stations as text."
            className="ffd-station-map relative h-[60vh] min-h-[24rem] w-full rounded-xl border border-slate-200 dark:border-slate-800"
          >
            <StationMap
              stations={shown}
              points={onMap.points}
              scale={onMap.scale}
              dataReadyAt={onMap.readyAt}
              staleIds={onMap.staleIds}
              selectedId={selected?.id ?? null}
              onSelect={setSelectedId}
              near={view.near}
              radiusMiles={view.radius}
              state={view.state}
              onPickPoint={onPickPoint}
              onViewChange={setViewBounds}
              onDrawn={onDrawn}
              tileUrl={tileUrl}
              tileAttribution={tileAttribution}
              onTilesFailed={onTilesFailed}
              tilesFailed={tilesFailed}
              now={now}
              describeProduct={describeProduct}
            />
          </div>
          <p className="sr-only" aria-live="polite">
            {selected === null ? "" : `Selected ${selected.name}, ${selected.city}, ${selected.state}.`}
          </p>
        </div>
        <div className="space-y-6">
          <Card title="Price legend">
            <PriceLegend
              scale={onMap.scale}
              staleCount={onMap.staleIds.size}
              unpricedCount={unpricedCount}
              rankedProduct={isProductReady ? productName(view.product) : null}
              colourScale={view.scale}
              onColourScaleChange={onScaleChange}
              shownCount={shown.length}
              inViewCount={inView?.length ?? null}
              hasFilters={view.brand !== null || view.state !== null || view.search !== ""}
            />
          </Card>
          <Card title="Cheapest near here">
            <NearbyPanel
              view={view}
              stations={shown}
              ranking={ranking}
              selectedId={selected?.id ?? null}
              onSelect={onSelectFromList}
              onChange={setView}
              now={now}
              productMode={productMode}
            />
          </Card>
        </div>
      </div>
    </div>
  );
}
