"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import type { Station, StationProduct } from "@/lib/model";
import type { BffRequestError } from "@/lib/queries/fetch-json";
import type { StationPricesState } from "@/lib/queries/locations";
import { formatCount, formatUnitPrice } from "@/lib/format/numbers";
import { Button } from "@/components/ui/button";
import { QueryErrorNotice } from "@/components/ui/error-notice";
import { brandName, describeAge } from "./format";
import { describeDifference, type NearbyRanking, type StationWithin } from "./nearby";
import { FIELD_CLASSES, LABEL_CLASSES } from "@/components/ui/field";
import { ProductSummary } from "./product-summary";
import { productInText, productName, withArticle, type ProductRanking } from "./product-ranking";
import {
  formatLatLng,
  isStale,
  RADIUS_OPTIONS_MILES,
  resolvePlace,
  RESULT_COUNT_OPTIONS,
  type Place,
  type RadiusMiles,
  type ResultCount,
  type StationsView,
} from "./view-state";

const GEOLOCATION_TIMEOUT_MS = 10_000;

/**
 * Ranking by a product the catalog does not price. `learning`: the page is finding out whether the upstream's station
 * detail prices several products; `failed`: that failed; `unavailable`: it prices one (the catalog's price ranks, and
 * the panel says why); `ready`: the product's checked prices rank (`ranking` null until a point is chosen).
 */
export type ProductMode =
  | { status: "learning"; product: StationProduct }
  | { status: "failed"; product: StationProduct; error: BffRequestError; onRetry: () => void; isRetrying: boolean }
  | { status: "unavailable"; product: StationProduct }
  | {
      status: "ready";
      product: StationProduct;
      ranking: ProductRanking | null;
      prices: StationPricesState;
      onCheckMore: () => void;
    };

export interface NearbyPanelProps {
  view: StationsView;
  /** The stations shown (filters applied): places are looked up among them. */
  stations: readonly Station[];
  ranking: NearbyRanking;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChange: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
  now: number;
  /** Null when the catalog's (diesel) price ranks. */
  productMode: ProductMode | null;
}

/**
 * "Cheapest near here": a point (typed, the browser's location, or a click on the map), a radius and a count give a
 * ranked table. It is the page's accessible path: every station the map shows can be reached, selected and opened
 * from here by keyboard, with the price, distance and comparison as text.
 */
export function NearbyPanel({
  view,
  stations,
  ranking,
  selectedId,
  onSelect,
  onChange,
  now,
  productMode,
}: NearbyPanelProps) {
  const ids = { place: useId(), radius: useId(), count: useId(), hint: useId(), choices: useId() };
  const [place, setPlace] = useState(view.nearLabel);
  const [message, setMessage] = useState<string | null>(null);
  // A name several states have: the places it can mean, until one is chosen (or the name changes).
  const [choices, setChoices] = useState<{ name: string; places: Place[] } | null>(null);
  const firstChoice = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Keyboard and screen-reader users land on the list they must choose from.
    if (choices !== null) firstChoice.current?.focus();
  }, [choices]);
  const [isLocating, setIsLocating] = useState(false);
  // The point changed elsewhere (a map click, Back, a shared link): the field shows its label.
  const [lastLabel, setLastLabel] = useState(view.nearLabel);
  if (view.nearLabel !== lastLabel) {
    setLastLabel(view.nearLabel);
    setPlace(view.nearLabel);
  }

  const findPlace = () => {
    const found = resolvePlace(place, stations);
    const [only] = found;
    if (only === undefined) {
      setChoices(null);
      setMessage(
        place.trim() === ""
          ? "Type a city and state (Amarillo, TX), a state (TX) or coordinates (35.22, -101.83)."
          : `No station is in a place called “${place.trim()}”. Try a city and state, a state code or coordinates.`,
      );
      return;
    }
    setMessage(null);
    if (found.length > 1) {
      setChoices({ name: place.trim(), places: found });
      return;
    }
    choosePlace(only);
  };

  const choosePlace = (chosen: Place) => {
    setChoices(null);
    setPlace(chosen.label);
    onChange({ near: chosen.point, nearLabel: chosen.label });
  };

  const useMyLocation = () => {
    if (!("geolocation" in navigator)) {
      setMessage("This browser cannot share its location. Type a place or click the map instead.");
      return;
    }
    setIsLocating(true);
    setMessage(null);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setIsLocating(false);
        onChange({
          near: { lat: position.coords.latitude, lng: position.coords.longitude },
          nearLabel: "your location",
        });
      },
      (error) => {
        setIsLocating(false);
        setMessage(
          error.code === error.PERMISSION_DENIED
            ? "Location permission was denied. Type a place or click the map instead."
            : "Your location could not be found. Type a place or click the map instead.",
        );
      },
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 60_000 },
    );
  };

  const clearPoint = () => {
    setPlace("");
    onChange({ near: null, nearLabel: "" });
  };

  return (
    <div className="space-y-4">
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          findPlace();
        }}
      >
        <div>
          <label htmlFor={ids.place} className={LABEL_CLASSES}>
            Near
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={ids.place}
              className={FIELD_CLASSES}
              value={place}
              aria-describedby={ids.hint}
              placeholder="Amarillo, TX"
              maxLength={80}
              onChange={(event) => {
                setPlace(event.target.value);
                setChoices(null);
              }}
            />
            <Button type="submit" variant="secondary">
              Find
            </Button>
          </div>
          <p id={ids.hint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            A city and state, a state code or coordinates — or click the map.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-28">
            <label htmlFor={ids.radius} className={LABEL_CLASSES}>
              Within
            </label>
            <select
              id={ids.radius}
              className={FIELD_CLASSES}
              value={view.radius}
              onChange={(event) => {
                onChange({ radius: Number(event.target.value) as RadiusMiles });
              }}
            >
              {RADIUS_OPTIONS_MILES.map((miles) => (
                <option key={miles} value={miles}>
                  {miles} mi
                </option>
              ))}
            </select>
          </div>
          <div className="w-24">
            <label htmlFor={ids.count} className={LABEL_CLASSES}>
              Show
            </label>
            <select
              id={ids.count}
              className={FIELD_CLASSES}
              value={view.count}
              onChange={(event) => {
                onChange({ count: Number(event.target.value) as ResultCount });
              }}
            >
              {RESULT_COUNT_OPTIONS.map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={useMyLocation} disabled={isLocating}>
            {isLocating ? "Locating…" : "Use my location"}
          </Button>
        </div>
      </form>
      {message === null ? null : (
        <p role="status" className="text-sm text-red-800 dark:text-red-200">
          {message}
        </p>
      )}
      {choices === null ? null : (
        <div
          role="group"
          aria-labelledby={ids.choices}
          data-testid="place-choices"
          className="rounded-md border border-slate-300 p-3 dark:border-slate-600"
        >
          <p id={ids.choices} className="text-sm text-slate-800 dark:text-slate-200">
            “{choices.name}” is a place in {formatCount(choices.places.length)} states. Which one?
          </p>
          <ul className="mt-2 space-y-1">
            {choices.places.map((choice, index) => (
              <li key={choice.label}>
                <button
                  ref={index === 0 ? firstChoice : undefined}
                  type="button"
                  className="text-left text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300"
                  onClick={() => {
                    choosePlace(choice);
                  }}
                >
                  {choice.label}
                </button>{" "}
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  ({formatCount(choice.stationCount)} {choice.stationCount === 1 ? "station" : "stations"})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {productMode === null || productMode.status === "ready" ? null : <ProductModeNotice mode={productMode} />}
      {productMode?.status === "ready" ? (
        <ProductPart
          view={view}
          mode={productMode}
          selectedId={selectedId}
          onSelect={onSelect}
          now={now}
          onClearPoint={clearPoint}
        />
      ) : productMode?.status === "learning" || productMode?.status === "failed" ? null : (
        <>
          <div aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300" data-testid="nearby-summary">
            {view.near === null ? (
              <p>The cheapest stations shown. Choose a point to rank by distance too.</p>
            ) : (
              <p>
                Near <span className="font-medium text-slate-900 dark:text-slate-100">{placeLabel(view)}</span>:{" "}
                {formatCount(ranking.inRadius)} {ranking.inRadius === 1 ? "station" : "stations"} with a price within{" "}
                {view.radius} mi
                {ranking.areaAverage === null ? "" : `, area average $${ranking.areaAverage.toFixed(3)}`}.{" "}
                <ClearPointButton onClick={clearPoint} />
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
      )}
    </div>
  );
}

function placeLabel(view: StationsView): string {
  if (view.near === null) return "";
  return view.nearLabel === "" ? formatLatLng(view.near).replace(",", ", ") : view.nearLabel;
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

/** Why the product chosen in the URL does not rank (yet). */
function ProductModeNotice({ mode }: { mode: Exclude<ProductMode, { status: "ready" }> }) {
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

/** "Cheapest near here" by a product read from station details: what was checked, the ranking, and what was not. */
function ProductPart({
  view,
  mode,
  selectedId,
  onSelect,
  now,
  onClearPoint,
}: {
  view: StationsView;
  mode: Extract<ProductMode, { status: "ready" }>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  now: number;
  onClearPoint: () => void;
}) {
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
  const noPriceLabel = `No ${name}`;
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
          unpricedLabel={noPriceLabel}
          unpricedHeading={`Checked, without ${withArticle(mode.product)} price`}
        />
      )}
    </>
  );
}

interface RankedTableProps {
  items: NearbyRanking["items"];
  selectedId: string | null;
  onSelect: (id: string) => void;
  now: number;
  hasDistance: boolean;
  /** The price column's heading: "Price" (the catalog's), or the product ranked ("Unleaded"). */
  priceLabel: string;
  emptyMessage: string;
  /** Checked stations without a price for the product, listed after the ranking as such ("No DEF"). */
  unpricedRows?: readonly StationWithin[];
  unpricedLabel?: string;
  /** The heading of those rows. */
  unpricedHeading?: string;
}

function RankedTable({
  items,
  selectedId,
  onSelect,
  now,
  hasDistance,
  priceLabel,
  emptyMessage,
  unpricedRows = [],
  unpricedLabel = "No price",
  unpricedHeading = "Checked, without a price",
}: RankedTableProps) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A station chosen on the map: its row is scrolled into view inside the list only. (scrollIntoView would scroll
    // the page too, taking the map and its popup off screen.)
    const row = selectedRow.current;
    const box = scroller.current;
    if (row === null || box === null) return;
    const rowTop = row.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    const header = box.querySelector("thead")?.getBoundingClientRect().height ?? 0;
    if (rowTop - header < box.scrollTop) box.scrollTop = rowTop - header;
    else if (rowTop + row.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = rowTop + row.offsetHeight - box.clientHeight;
  }, [selectedId]);

  if (items.length === 0 && unpricedRows.length === 0) {
    return <p className="text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p>;
  }
  const columns = hasDistance ? 4 : 3;
  return (
    // relative: the screen-reader-only texts inside (absolutely positioned) are placed and clipped within the list;
    // without it they sat at their rows' positions far below, and the page grew an empty scroll space under the map.
    <div ref={scroller} className="relative max-h-[32rem] overflow-y-auto">
      {items.length === 0 ? <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p> : null}
      <table className="w-full text-left text-sm" data-testid="ranked-list">
        <caption className="sr-only">
          Cheapest stations{hasDistance ? " within the radius" : ""} by{" "}
          {priceLabel === "Price" ? "price" : `${priceLabel} price`}, cheapest first
          {unpricedRows.length > 0 ? `, then the checked stations without that price` : ""}. Select a station to show it
          on the map.
        </caption>
        <thead className="sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              #
            </th>
            <th scope="col" className="py-1 pr-2 font-medium">
              Station
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              {priceLabel}
            </th>
            {hasDistance ? (
              <th scope="col" className="py-1 text-right font-medium">
                Distance
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {items.map((item, index) => {
            const s = item.station;
            const isSelected = s.id === selectedId;
            const stale = isStale(item.priceUpdatedAt, now);
            return (
              <tr
                key={s.id}
                ref={isSelected ? selectedRow : undefined}
                data-testid="ranked-row"
                data-station-id={s.id}
                className={isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}
              >
                <td className="py-2 pr-2 align-top tabular-nums text-slate-700 dark:text-slate-300">{index + 1}</td>
                <StationCell station={s} isSelected={isSelected} onSelect={onSelect} />
                <td className="py-2 pr-2 text-right align-top">
                  <span
                    className="block font-medium tabular-nums text-slate-900 dark:text-slate-100"
                    data-testid="ranked-price"
                  >
                    {formatUnitPrice(item.priceText)}
                  </span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {describeDifference(item.diffFromAverage)}
                  </span>
                  <span
                    className={`block text-xs ${stale ? "font-medium text-red-800 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}`}
                  >
                    {item.priceUpdatedAt === null
                      ? "never updated"
                      : `updated ${describeAge(item.priceUpdatedAt, now)}`}
                    {stale ? " (stale)" : ""}
                  </span>
                </td>
                {hasDistance ? (
                  <td
                    className="py-2 text-right align-top tabular-nums text-slate-900 dark:text-slate-100"
                    data-testid="ranked-distance"
                  >
                    {item.distanceMiles === null ? "—" : `${item.distanceMiles.toFixed(1)} mi`}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
        {unpricedRows.length === 0 ? null : (
          <tbody className="divide-y divide-slate-200 border-t-2 border-slate-300 dark:divide-slate-800 dark:border-slate-600">
            <tr>
              <th
                scope="rowgroup"
                colSpan={columns}
                className="pt-3 pb-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400"
              >
                {unpricedHeading} ({formatCount(unpricedRows.length)})
              </th>
            </tr>
            {unpricedRows.map(({ station: s, distanceMiles }) => {
              const isSelected = s.id === selectedId;
              return (
                <tr
                  key={s.id}
                  ref={isSelected ? selectedRow : undefined}
                  data-testid="unpriced-row"
                  data-station-id={s.id}
                  className={isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}
                >
                  <td className="py-2 pr-2 align-top text-slate-700 dark:text-slate-300">
                    <span aria-hidden="true">–</span>
                    <span className="sr-only">not ranked</span>
                  </td>
                  <StationCell station={s} isSelected={isSelected} onSelect={onSelect} />
                  <td
                    className="py-2 pr-2 text-right align-top font-medium text-slate-900 dark:text-slate-100"
                    data-testid="unpriced-label"
                  >
                    {unpricedLabel}
                  </td>
                  {hasDistance ? (
                    <td className="py-2 text-right align-top tabular-nums text-slate-900 dark:text-slate-100">{`${distanceMiles.toFixed(1)} mi`}</td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        )}
      </table>
    </div>
  );
}

function StationCell({
  station: s,
  isSelected,
  onSelect,
}: {
  station: Station;
  isSelected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <th scope="row" className="py-2 pr-2 align-top font-normal">
      <button
        type="button"
        aria-pressed={isSelected}
        className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-slate-50"
        onClick={() => {
          onSelect(s.id);
        }}
      >
        {s.name}
      </button>
      <span className="block text-xs text-slate-600 dark:text-slate-400">
        {brandName(s.brand)} · {s.city}, {s.state} ·{" "}
        <Link href={`/stations/${encodeURIComponent(s.id)}`} className="underline underline-offset-2">
          Details<span className="sr-only"> of {s.name}</span>
        </Link>
      </span>
    </th>
  );
}
