"use client";

import L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap, useMapEvents } from "react-leaflet";

import { US_STATE_FIPS, type UsStateCode } from "@/lib/model/us-states";

import type { LatLng } from "../shared/lat-lng";
import { METERS_PER_MILE, US_BOUNDS } from "./map-constants";
import type { ViewBounds } from "./map-props";

/** The map's view as the page keeps it (the "stations in view" colour scale, the canvas layer's hit test). */
export function boundsOf(map: L.Map): ViewBounds {
  const b = map.getBounds();
  return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
}

/**
 * Brings into view what the person asked about: a chosen point (typed, "Use my location", a shared link) with its
 * radius, so the stations ranked beside the map are the ones on screen; else a state chosen in the filter (its outline's
 * bounds, once the outlines are there), or the whole country when the state filter is cleared. Only when one of those
 * changes: panning and zooming stay the user's.
 */
export function FitView({
  near,
  radiusMiles,
  state,
  outlines,
}: {
  near: LatLng | null;
  radiusMiles: number;
  state: string | null;
  outlines: GeoJSON.FeatureCollection | null;
}) {
  const map = useMap();
  // What the view was last fitted to; the map starts on the whole country.
  const fitted = useRef("us");
  const lat = near?.lat ?? null;
  const lng = near?.lng ?? null;
  useEffect(() => {
    if (lat !== null && lng !== null) {
      const target = `near:${String(lat)},${String(lng)},${String(radiusMiles)}`;
      if (fitted.current === target) return;
      fitted.current = target;
      map.fitBounds(L.latLng(lat, lng).toBounds(2 * radiusMiles * METERS_PER_MILE), {
        padding: [16, 16],
        animate: false,
      });
      return;
    }
    const target = state === null ? "us" : `state:${state}`;
    if (fitted.current === target) return;
    if (state === null) {
      fitted.current = target;
      map.fitBounds(US_BOUNDS, { animate: false });
      return;
    }
    const fips = US_STATE_FIPS[state as UsStateCode] as string | undefined;
    const outline = fips === undefined ? undefined : outlines?.features.find((f) => String(f.id) === fips);
    // The outlines are still loading: this runs again when they arrive.
    if (outline === undefined) return;
    fitted.current = target;
    map.fitBounds(L.geoJSON(outline).getBounds(), { padding: [16, 16], animate: false });
  }, [map, lat, lng, radiusMiles, state, outlines]);
  return null;
}

/** Reports the map's view once at the start and after every move or zoom. */
export function ViewReporter({ onViewChange }: { onViewChange: (bounds: ViewBounds) => void }) {
  const map = useMap();
  useEffect(() => {
    onViewChange(boundsOf(map));
  }, [map, onViewChange]);
  useMapEvents({
    moveend: () => {
      onViewChange(boundsOf(map));
    },
  });
  return null;
}
