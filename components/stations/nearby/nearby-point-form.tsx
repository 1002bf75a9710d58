"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { Station } from "@/lib/model";

import { PointFinderNotes, usePointFinder } from "../shared/point-finder";
import {
  RADIUS_OPTIONS_MILES,
  type RadiusMiles,
  RESULT_COUNT_OPTIONS,
  type ResultCount,
  type StationsView,
} from "../view-state";

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
  const finder = usePointFinder({
    stations,
    place,
    setPlace,
    onPoint: (near, nearLabel) => {
      onChange({ near, nearLabel });
    },
  });
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
      <PointFinderNotes finder={finder} />
    </>
  );
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
