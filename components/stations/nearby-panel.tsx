"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import type { Station } from "@/lib/model";
import { formatCount, formatUnitPrice } from "@/components/format/numbers";
import { Button } from "@/components/ui/button";
import { brandName, describeAge } from "./format";
import { describeDifference, type NearbyRanking } from "./nearby";
import { FIELD_CLASSES, LABEL_CLASSES } from "./filters";
import { formatLatLng, RADIUS_OPTIONS_MILES, resolvePlace, RESULT_COUNT_OPTIONS, type RadiusMiles, type ResultCount, type StationsView } from "./view-state";

const GEOLOCATION_TIMEOUT_MS = 10_000;

export interface NearbyPanelProps {
  view: StationsView;
  /** The stations shown (filters applied): places are looked up among them. */
  stations: readonly Station[];
  ranking: NearbyRanking;
  staleIds: ReadonlySet<string>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChange: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
  now: number;
}

/**
 * "Cheapest near here": a point (typed, the browser's location, or a click on the map), a radius and a count give a
 * ranked table. It is the page's accessible path: every station the map shows can be reached, selected and opened
 * from here by keyboard, with the price, distance and comparison as text.
 */
export function NearbyPanel({ view, stations, ranking, staleIds, selectedId, onSelect, onChange, now }: NearbyPanelProps) {
  const ids = { place: useId(), radius: useId(), count: useId(), hint: useId() };
  const [place, setPlace] = useState(view.nearLabel);
  const [message, setMessage] = useState<string | null>(null);
  const [isLocating, setIsLocating] = useState(false);
  // The point changed elsewhere (a map click, Back, a shared link): the field shows its label.
  const [lastLabel, setLastLabel] = useState(view.nearLabel);
  if (view.nearLabel !== lastLabel) {
    setLastLabel(view.nearLabel);
    setPlace(view.nearLabel);
  }

  const findPlace = () => {
    const found = resolvePlace(place, stations);
    if (found === null) {
      setMessage(place.trim() === "" ? "Type a city and state (Amarillo, TX), a state (TX) or coordinates (35.22, -101.83)." : `No station is in a place called “${place.trim()}”. Try a city and state, a state code or coordinates.`);
      return;
    }
    setMessage(null);
    onChange({ near: found.point, nearLabel: found.label });
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
        onChange({ near: { lat: position.coords.latitude, lng: position.coords.longitude }, nearLabel: "your location" });
      },
      (error) => {
        setIsLocating(false);
        setMessage(error.code === error.PERMISSION_DENIED ? "Location permission was denied. Type a place or click the map instead." : "Your location could not be found. Type a place or click the map instead.");
      },
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 60_000 },
    );
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
      <div aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300" data-testid="nearby-summary">
        {view.near === null ? (
          <p>The cheapest stations shown. Choose a point to rank by distance too.</p>
        ) : (
          <p>
            Near <span className="font-medium text-slate-900 dark:text-slate-100">{view.nearLabel === "" ? formatLatLng(view.near).replace(",", ", ") : view.nearLabel}</span>:{" "}
            {formatCount(ranking.inRadius)} {ranking.inRadius === 1 ? "station" : "stations"} with a price within {view.radius} mi
            {ranking.areaAverage === null ? "" : `, area average $${ranking.areaAverage.toFixed(3)}`}.{" "}
            <button
              type="button"
              className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
              onClick={() => {
                setPlace("");
                onChange({ near: null, nearLabel: "" });
              }}
            >
              Clear point
            </button>
          </p>
        )}
      </div>
      <RankedTable ranking={ranking} staleIds={staleIds} selectedId={selectedId} onSelect={onSelect} now={now} hasDistance={view.near !== null} />
    </div>
  );
}

function RankedTable({ ranking, staleIds, selectedId, onSelect, now, hasDistance }: { ranking: NearbyRanking; staleIds: ReadonlySet<string>; selectedId: string | null; onSelect: (id: string) => void; now: number; hasDistance: boolean }) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    selectedRow.current?.scrollIntoView({ block: "nearest" });
  }, [selectedId]);

  if (ranking.items.length === 0) {
    return <p className="text-sm text-slate-700 dark:text-slate-300">{hasDistance ? "No station with a price within this radius. Try a larger radius or another point." : "No station shown has a price."}</p>;
  }
  return (
    <div className="max-h-[32rem] overflow-y-auto">
      <table className="w-full text-left text-sm" data-testid="ranked-list">
        <caption className="sr-only">Cheapest stations{hasDistance ? " within the radius" : ""}, cheapest first. Select a station to show it on the map.</caption>
        <thead className="sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              #
            </th>
            <th scope="col" className="py-1 pr-2 font-medium">
              Station
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Price
            </th>
            {hasDistance ? (
              <th scope="col" className="py-1 text-right font-medium">
                Distance
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {ranking.items.map((item, index) => {
            const s = item.station;
            const isSelected = s.id === selectedId;
            const isStale = staleIds.has(s.id);
            return (
              <tr
                key={s.id}
                ref={isSelected ? selectedRow : undefined}
                data-testid="ranked-row"
                data-station-id={s.id}
                className={isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}
              >
                <td className="py-2 pr-2 align-top tabular-nums text-slate-700 dark:text-slate-300">{index + 1}</td>
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
                <td className="py-2 pr-2 text-right align-top">
                  <span className="block font-medium tabular-nums text-slate-900 dark:text-slate-100" data-testid="ranked-price">
                    {s.price === null ? "—" : formatUnitPrice(s.price)}
                  </span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{describeDifference(item.diffFromAverage)}</span>
                  <span className={`block text-xs ${isStale ? "font-medium text-red-800 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}`}>
                    {s.priceUpdatedAt === null ? "never updated" : `updated ${describeAge(s.priceUpdatedAt, now)}`}
                    {isStale ? " (stale)" : ""}
                  </span>
                </td>
                {hasDistance ? (
                  <td className="py-2 text-right align-top tabular-nums text-slate-900 dark:text-slate-100" data-testid="ranked-distance">
                    {item.distanceMiles === null ? "—" : `${item.distanceMiles.toFixed(1)} mi`}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
