"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { Station } from "@/lib/model";

import type { LatLng } from "../shared/lat-lng";
import { PointFinderNotes, usePointFinder } from "../shared/point-finder";
import { MAX_VIA_POINTS, type RoutePoint, type RouteView } from "./route-view-state";

/** Which of the route's points a map click sets: from, to, or a via point by its index. */
export type RouteSlot = "from" | "to" | number;

export function slotName(slot: RouteSlot): string {
  if (slot === "from") return "From";
  if (slot === "to") return "To";
  return `Via ${String(slot + 1)}`;
}

/** "the starting point", "the destination", "via point 2": in a sentence. */
function slotInText(slot: RouteSlot): string {
  if (slot === "from") return "the starting point";
  if (slot === "to") return "the destination";
  return `via point ${String(slot + 1)}`;
}

export function pointAt(route: RouteView, slot: RouteSlot): RoutePoint | null {
  if (slot === "from") return route.from;
  if (slot === "to") return route.to;
  return route.via[slot] ?? null;
}

/** The route with the point of `slot` set (a via point past the end is added). */
export function withPoint(route: RouteView, slot: RouteSlot, point: RoutePoint): RouteView {
  if (slot === "from") return { ...route, from: point };
  if (slot === "to") return { ...route, to: point };
  const via = [...route.via];
  via[Math.min(slot, via.length)] = point;
  return { ...route, via };
}

export interface RoutePointsFormProps {
  route: RouteView;
  stations: readonly Station[];
  onRouteChange: (route: RouteView) => void;
  /** The point a map click sets now (its "Pick on map" is pressed); null: the first of from and to not chosen. */
  picking: RouteSlot | null;
  onPick: (slot: RouteSlot | null) => void;
}

/**
 * From, optional via points, and to: each a place typed like the near point (a city and state, a state code,
 * coordinates), or a point picked on the map.
 */
export function RoutePointsForm({ route, stations, onRouteChange, picking, onPick }: RoutePointsFormProps) {
  // "Add a via point" shows an empty row until its point is found or picked.
  const [adding, setAdding] = useState(false);
  const [viaCount, setViaCount] = useState(route.via.length);
  if (viaCount !== route.via.length) {
    setViaCount(route.via.length);
    setAdding(false);
  }
  const viaSlots = route.via.map((_, i) => i);
  if (adding && route.via.length < MAX_VIA_POINTS) viaSlots.push(route.via.length);
  const slots: RouteSlot[] = ["from", ...viaSlots, "to"];
  const remove = (slot: number) => {
    if (slot >= route.via.length) setAdding(false);
    else onRouteChange({ ...route, via: route.via.filter((_, i) => i !== slot) });
    if (picking === slot) onPick(null);
  };
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">Route</legend>
      {slots.map((slot) => (
        <PointRow
          key={String(slot)}
          slot={slot}
          route={route}
          stations={stations}
          isPicking={picking === slot}
          onPick={onPick}
          onRouteChange={onRouteChange}
          onRemove={remove}
        />
      ))}
      <div className="flex flex-wrap items-center gap-3">
        {route.via.length < MAX_VIA_POINTS && !adding ? (
          <Button
            variant="secondary"
            className="px-3 py-1"
            disabled={route.from === null || route.to === null}
            onClick={() => {
              setAdding(true);
            }}
          >
            Add a via point
          </Button>
        ) : null}
        {picking === null ? null : (
          <p role="status" className="text-sm text-slate-800 dark:text-slate-200" data-testid="route-picking">
            Click the map to set {slotInText(picking)}.{" "}
            <button
              type="button"
              className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
              onClick={() => {
                onPick(null);
              }}
            >
              Cancel
            </button>
          </p>
        )}
      </div>
    </fieldset>
  );
}

function PointRow({
  slot,
  route,
  stations,
  isPicking,
  onPick,
  onRouteChange,
  onRemove,
}: {
  slot: RouteSlot;
  route: RouteView;
  stations: readonly Station[];
  isPicking: boolean;
  onPick: (slot: RouteSlot | null) => void;
  onRouteChange: (route: RouteView) => void;
  onRemove: (slot: number) => void;
}) {
  const current = pointAt(route, slot);
  const label = current?.label ?? "";
  const [place, setPlace] = useState(label);
  // The point changed elsewhere (a map click, Back, a shared link): the field shows its label.
  const [lastLabel, setLastLabel] = useState(label);
  if (label !== lastLabel) {
    setLastLabel(label);
    setPlace(label);
  }
  const finder = usePointFinder({
    stations,
    place,
    setPlace,
    onPoint: (point: LatLng, pointLabel: string) => {
      onRouteChange(withPoint(route, slot, { point, label: pointLabel }));
    },
  });
  const name = slotName(slot);
  return (
    <div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          finder.findPlace();
        }}
      >
        <Field label={name} hint={slot === "from" ? "A city and state, a state code or coordinates." : undefined}>
          {(control) => (
            <div className="mt-1 flex flex-wrap gap-2">
              <input
                {...control}
                className={`${control.className} min-w-0 flex-1 basis-40`}
                value={place}
                placeholder={slot === "from" ? "Dallas, TX" : slot === "to" ? "Denver, CO" : "Amarillo, TX"}
                maxLength={80}
                onChange={(event) => {
                  setPlace(event.target.value);
                  finder.dropChoices();
                }}
              />
              <RowButtons slot={slot} isPicking={isPicking} onPick={onPick} onRemove={onRemove} />
            </div>
          )}
        </Field>
      </form>
      <PointFinderNotes finder={finder} />
    </div>
  );
}

/** Find (submits the row's form), Pick on map, and Remove for a via point; each names its point for screen readers. */
function RowButtons({
  slot,
  isPicking,
  onPick,
  onRemove,
}: {
  slot: RouteSlot;
  isPicking: boolean;
  onPick: (slot: RouteSlot | null) => void;
  onRemove: (slot: number) => void;
}) {
  const name = slotName(slot).toLowerCase();
  return (
    <>
      <Button type="submit" variant="secondary" className="px-3">
        Find<span className="sr-only"> {name}</span>
      </Button>
      <Button
        variant="secondary"
        className="px-3"
        aria-pressed={isPicking}
        onClick={() => {
          onPick(isPicking ? null : slot);
        }}
      >
        Pick on map<span className="sr-only"> ({name})</span>
      </Button>
      {typeof slot === "number" ? (
        <Button
          variant="secondary"
          className="px-3"
          onClick={() => {
            onRemove(slot);
          }}
        >
          Remove<span className="sr-only"> {name}</span>
        </Button>
      ) : null}
    </>
  );
}
