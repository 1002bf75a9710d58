"use client";

import { useEffect, useId, useRef, useState } from "react";

import { formatCount } from "@/lib/format/numbers";
import type { Station } from "@/lib/model";

import type { LatLng } from "./lat-lng";
import { type Place, resolvePlace } from "./places";

const GEOLOCATION_TIMEOUT_MS = 10_000;

/**
 * A point typed as a place (a city and state, a state code or coordinates, resolved among the catalog's stations) or
 * the browser's location: "cheapest near here" and the Route mode's from, via and to points share it.
 */
export interface PointFinderProps {
  /** The stations shown (filters applied): places are looked up among them. */
  stations: readonly Station[];
  /** The place field's text. */
  place: string;
  setPlace: (place: string) => void;
  /** The point found, with how it reads. */
  onPoint: (point: LatLng, label: string) => void;
}

/** Finding the point: the place typed, the choice among same-named places, or the browser's location. */
export function usePointFinder({ stations, place, setPlace, onPoint }: PointFinderProps) {
  const [message, setMessage] = useState<string | null>(null);
  // A name several states have: the places it can mean, until one is chosen (or the name changes).
  const [choices, setChoices] = useState<{ name: string; places: Place[] } | null>(null);
  const [isLocating, setIsLocating] = useState(false);

  const choosePlace = (chosen: Place) => {
    setChoices(null);
    setPlace(chosen.label);
    onPoint(chosen.point, chosen.label);
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
        onPoint({ lat: position.coords.latitude, lng: position.coords.longitude }, "your location");
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

/** What went wrong finding the point, and the places a name can mean. */
export function PointFinderNotes({ finder }: { finder: ReturnType<typeof usePointFinder> }) {
  return (
    <>
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

/** The places a name can mean; keyboard and screen-reader users land on the list they must choose from. */
export function PlaceChoices({
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
  // Where focus was when the list appeared (the place field or its Find button): it goes back there once a place is
  // chosen, since the list then leaves the page (focus would otherwise drop to <body>).
  const cameFrom = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (document.activeElement instanceof HTMLElement && !document.activeElement.closest("[data-testid=place-choices]"))
      cameFrom.current = document.activeElement;
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
                const back = cameFrom.current;
                onChoose(choice);
                if (back?.isConnected) back.focus();
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
