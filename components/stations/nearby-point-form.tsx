"use client";

import { useEffect, useId, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { formatCount } from "@/lib/format/numbers";
import type { Station } from "@/lib/model";

import {
  type Place,
  RADIUS_OPTIONS_MILES,
  type RadiusMiles,
  resolvePlace,
  RESULT_COUNT_OPTIONS,
  type ResultCount,
  type StationsView,
} from "./view-state";

const GEOLOCATION_TIMEOUT_MS = 10_000;

export interface NearbyPointFormProps {
  view: StationsView;
  /** The stations shown (filters applied): places are looked up among them. */
  stations: readonly Station[];
  /** The place field's text: kept by the panel, whose "Clear point" empties it too. */
  place: string;
  setPlace: (place: string) => void;
  onChange: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
}

/** The point of "Cheapest near here": a typed place (asking which one when several states have it) or the browser's. */
export function NearbyPointForm({ view, stations, place, setPlace, onChange }: NearbyPointFormProps) {
  const finder = usePointFinder({ stations, place, setPlace, onChange });
  return (
    <>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          finder.findPlace();
        }}
      >
        <Field label="Near" hint="A city and state, a state code or coordinates — or click the map.">
          {(control) => (
            <div className="mt-1 flex gap-2">
              <input
                {...control}
                value={place}
                placeholder="Amarillo, TX"
                maxLength={80}
                onChange={(event) => {
                  setPlace(event.target.value);
                  finder.dropChoices();
                }}
              />
              <Button type="submit" variant="secondary">
                Find
              </Button>
            </div>
          )}
        </Field>
        <div className="flex flex-wrap items-end gap-3">
          <RadiusAndCount view={view} onChange={onChange} />
          <Button variant="secondary" onClick={finder.useMyLocation} disabled={finder.isLocating}>
            {finder.isLocating ? "Locating…" : "Use my location"}
          </Button>
        </div>
      </form>
      {finder.message === null ? null : (
        <p role="status" className="text-sm text-red-800 dark:text-red-200">
          {finder.message}
        </p>
      )}
      {finder.choices === null ? null : (
        <PlaceChoices name={finder.choices.name} places={finder.choices.places} onChoose={finder.choosePlace} />
      )}
    </>
  );
}

/** Finding the point: the place typed, the choice among same-named places, or the browser's location. */
function usePointFinder({ stations, place, setPlace, onChange }: Omit<NearbyPointFormProps, "view">) {
  const [message, setMessage] = useState<string | null>(null);
  // A name several states have: the places it can mean, until one is chosen (or the name changes).
  const [choices, setChoices] = useState<{ name: string; places: Place[] } | null>(null);
  const [isLocating, setIsLocating] = useState(false);

  const choosePlace = (chosen: Place) => {
    setChoices(null);
    setPlace(chosen.label);
    onChange({ near: chosen.point, nearLabel: chosen.label });
  };

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

  const dropChoices = () => {
    setChoices(null);
  };
  return { message, choices, isLocating, findPlace, choosePlace, useMyLocation, dropChoices };
}

function RadiusAndCount({ view, onChange }: { view: StationsView; onChange: NearbyPointFormProps["onChange"] }) {
  return (
    <>
      <Field label="Within" className="w-28">
        {(control) => (
          <select
            {...control}
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
        )}
      </Field>
      <Field label="Show" className="w-24">
        {(control) => (
          <select
            {...control}
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
        )}
      </Field>
    </>
  );
}

/** The places a name can mean; keyboard and screen-reader users land on the list they must choose from. */
function PlaceChoices({
  name,
  places,
  onChoose,
}: {
  name: string;
  places: readonly Place[];
  onChoose: (place: Place) => void;
}) {
  const headingId = useId();
  const firstChoice = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    firstChoice.current?.focus();
  }, [places]);
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      data-testid="place-choices"
      className="rounded-md border border-slate-300 p-3 dark:border-slate-600"
    >
      <p id={headingId} className="text-sm text-slate-800 dark:text-slate-200">
        “{name}” is a place in {formatCount(places.length)} states. Which one?
      </p>
      <ul className="mt-2 space-y-1">
        {places.map((choice, index) => (
          <li key={choice.label}>
            <button
              ref={index === 0 ? firstChoice : undefined}
              type="button"
              className="text-left text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300"
              onClick={() => {
                onChoose(choice);
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
  );
}
