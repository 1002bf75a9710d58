"use client";

import { useCallback, useMemo, useState } from "react";

import type { Station } from "@/lib/model";
import type { TruckProfile } from "@/lib/route";

import { type LatLng, pointLabel } from "../shared/lat-lng";
import type { RouteOverlay, RoutePointMark } from "../shared/route-overlay";
import type { StationsView } from "../view-state";
import { type RouteProductChecks, type RouteResult, useRouteData } from "./route-data";
import { pointAt, type RouteSlot, withPoint } from "./route-points-form";
import { useStoredTruck } from "./route-truck-store";
import type { RouteView } from "./route-view-state";

type SetView = (patch: Partial<StationsView>, mode?: "push" | "replace") => void;

/**
 * The route's points lettered A, B… in order (the markers look alike otherwise): the first is the start, the last the
 * end, the others via points. `labels` are the points' names in the same order (the route view's).
 */
export function routePointMarks(points: readonly LatLng[], labels: readonly string[]): RoutePointMark[] {
  return points.map((p, i) => {
    // More than 26 points cannot happen (from, to and at most MAX_VIA_POINTS via points).
    const letter = String.fromCharCode(65 + i);
    const role = i === 0 ? "Start" : i === points.length - 1 ? "End" : "Via";
    const named = labels[i] ?? "";
    const label = named === "" ? pointLabel(p) : named;
    return { lat: p.lat, lng: p.lng, letter, title: `${role} ${letter}: ${label}` };
  });
}

export function overlayOf(result: RouteResult, labels: readonly string[] = []): RouteOverlay {
  return {
    polyline: result.polyline,
    points: routePointMarks(result.route.points, labels),
    corridor: result.candidates.map((c) => ({ id: c.station.id, lat: c.station.lat, lng: c.station.lng })),
    stops: result.plan?.feasible
      ? result.plan.stops.map((s, i) => ({
          id: s.candidate.station.id,
          lat: s.candidate.station.lat,
          lng: s.candidate.station.lng,
          label: String(i + 1),
        }))
      : [],
  };
}

export interface RouteModeState {
  route: RouteView;
  truck: TruckProfile;
  result: RouteResult | null;
  productChecks: RouteProductChecks | null;
  corridorCount: number;
  overlay: RouteOverlay | null;
  picking: RouteSlot | null;
  onPick: (slot: RouteSlot | null) => void;
  onRouteChange: (route: RouteView) => void;
  onTruckChange: (truck: TruckProfile) => void;
  onInLinkChange: (inLink: boolean) => void;
  /** A click on the map in Route mode: sets the point being picked, else the first of from and to not chosen. */
  onPickPoint: (point: LatLng) => void;
}

/**
 * The Route mode's state: the route lives in the URL, the truck in this browser (or in the link when the person put
 * it there), and which point a map click sets in the page.
 */
export function useRouteMode(
  view: StationsView,
  setView: SetView,
  shown: readonly Station[],
  productReady: boolean,
): RouteModeState {
  const route = view.route;
  const [storedTruck, saveTruck] = useStoredTruck();
  const truck = route.truck ?? storedTruck;
  const [picking, setPicking] = useState<RouteSlot | null>(null);
  const data = useRouteData(route, view.product, productReady, shown, truck, view.mode === "route");

  const onRouteChange = useCallback(
    (next: RouteView) => {
      setView({ route: next });
    },
    [setView],
  );
  const onTruckChange = useCallback(
    (next: TruckProfile) => {
      saveTruck(next);
      // A truck in the link follows the form (replace: typing a number is not a step to go Back to).
      if (route.truck !== null) setView({ route: { ...route, truck: next } }, "replace");
    },
    [saveTruck, route, setView],
  );
  const onInLinkChange = useCallback(
    (inLink: boolean) => {
      setView({ route: { ...route, truck: inLink ? truck : null } }, "replace");
    },
    [route, truck, setView],
  );
  const onPickPoint = useCallback(
    (point: LatLng) => {
      const slot: RouteSlot | null = picking ?? (route.from === null ? "from" : route.to === null ? "to" : null);
      if (slot === null) return;
      setPicking(null);
      const label = pointLabel(point);
      setView({ route: withPoint(route, slot, { point, label }) });
    },
    [picking, route, setView],
  );
  const { from, via, to } = route;
  const overlay = useMemo(
    () =>
      data.result === null
        ? null
        : overlayOf(data.result, [from?.label ?? "", ...via.map((v) => v.label), to?.label ?? ""]),
    [data.result, from, via, to],
  );
  return {
    route,
    truck,
    result: data.result,
    productChecks: data.productChecks,
    corridorCount: data.corridorCount,
    overlay,
    picking,
    onPick: setPicking,
    onRouteChange,
    onTruckChange,
    onInLinkChange,
    onPickPoint,
  };
}

/** The route's points as the summary prints them: "Dallas, TX → Amarillo, TX → Denver, CO". */
export function describeRoutePoints(route: RouteView): string {
  const slots: RouteSlot[] = ["from", ...route.via.map((_, i) => i), "to"];
  return slots.map((slot) => pointAt(route, slot)?.label ?? "?").join(" → ");
}
