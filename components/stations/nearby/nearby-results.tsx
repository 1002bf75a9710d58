"use client";

import { formatCount, formatDollarsPerGallon } from "@/lib/format/numbers";

import { pointLabel } from "../shared/lat-lng";
import { productInText, productName, withArticle } from "../shared/product-ranking";
import { ProductSummary } from "../shared/product-summary";
import type { NearbyRanking } from "../shared/ranking";
import type { ProductMode } from "../shared/use-product-mode";
import type { StationsView } from "../view-state";
import { RankedTable } from "./ranked-table-lazy";

interface ResultsProps {
  view: StationsView;
  selectedId: string | null;
  onSelect: (id: string) => void;
  now: number;
  onClearPoint: () => void;
}

/** The point as the panel prints it: its label, or its coordinates when it has none. */
function placeLabel(view: StationsView): string {
  if (view.near === null) return "";
  return view.nearLabel === "" ? pointLabel(view.near) : view.nearLabel;
}

function ClearPointButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
      onClick={onClick}
    >
      Clear point
    </button>
  );
}

/** The catalog's (diesel) price ranks: the cheapest shown, or the cheapest within the radius of the point. */
export function CatalogRanking({
  view,
  ranking,
  selectedId,
  onSelect,
  now,
  onClearPoint,
}: ResultsProps & { ranking: NearbyRanking }) {
  return (
    <>
      <div aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300" data-testid="nearby-summary">
        {view.near === null ? (
          <p>The cheapest stations shown. Choose a point to rank by distance too.</p>
        ) : (
          <p>
            Near <span className="font-medium text-slate-900 dark:text-slate-100">{placeLabel(view)}</span>:{" "}
            {formatCount(ranking.inRadius)} {ranking.inRadius === 1 ? "station" : "stations"} with a price within{" "}
            {view.radius} mi
            {ranking.areaAverage === null ? "" : `, area average ${formatDollarsPerGallon(ranking.areaAverage)}`}.{" "}
            <ClearPointButton onClick={onClearPoint} />
          </p>
        )}
      </div>
      <RankedTable
        items={ranking.items}
        selectedId={selectedId}
        onSelect={onSelect}
        now={now}
        hasDistance={view.near !== null}
        priceLabel="Price"
        emptyMessage={
          view.near !== null
            ? "No station with a price within this radius. Try a larger radius or another point."
            : "No station shown has a price."
        }
      />
    </>
  );
}

/** "Cheapest near here" by a product read from station details: what was checked, the ranking, and what was not. */
export function ProductPart({
  view,
  mode,
  selectedId,
  onSelect,
  now,
  onClearPoint,
}: ResultsProps & { mode: Extract<ProductMode, { status: "ready" }> }) {
  const name = productInText(mode.product);
  if (view.near === null || mode.ranking === null) {
    return (
      <div aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300" data-testid="nearby-summary">
        <p>
          The catalog lists diesel prices only. {productName(mode.product)} prices are read from each station&apos;s
          details, one request to the Fleet Fuel API per station, so they are compared near a point: type a place, use
          your location or click the map.
        </p>
      </div>
    );
  }
  const ranking = mode.ranking;
  return (
    <>
      <ProductSummary
        ranking={ranking}
        prices={mode.prices}
        radiusMiles={view.radius}
        place={placeLabel(view)}
        onCheckMore={mode.onCheckMore}
        onClearPoint={<ClearPointButton onClick={onClearPoint} />}
      />
      {ranking.checked === 0 ? null : (
        <RankedTable
          items={ranking.items}
          selectedId={selectedId}
          onSelect={onSelect}
          now={now}
          hasDistance
          priceLabel={productName(mode.product)}
          emptyMessage={`None of the checked stations has ${withArticle(mode.product)} price. Check more stations or try a larger radius.`}
          unpricedRows={ranking.withoutProduct}
          unpricedLabel={`No ${name}`}
          unpricedHeading={`Checked, without ${withArticle(mode.product)} price`}
        />
      )}
    </>
  );
}
