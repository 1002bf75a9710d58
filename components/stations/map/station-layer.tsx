"use client";

import { useEffect, useRef, useState } from "react";
import { useMap, useMapEvents } from "react-leaflet";

import { useTheme } from "@/components/ui/theme";

import type { MapInnerProps, ViewBounds } from "./map-props";
import { boundsOf } from "./map-view";
import { StationCanvasLayer } from "./station-canvas-layer";

interface StationMapHook {
  positionOf: (id: string) => { x: number; y: number } | null;
  /** The map's view (south, west, north, east). */
  viewBounds: () => ViewBounds;
}

/** The stations' canvas layer: created once, fed new points on every filter change, measured on every draw. */
export function StationLayer({ points, dataReadyAt, selectedId, onSelect, onPickPoint, onDrawn }: MapInnerProps) {
  const map = useMap();
  const theme = useTheme();
  const [layer] = useState(() => new StationCanvasLayer());
  const readyAt = useRef(0);

  useEffect(() => {
    readyAt.current = performance.now();
    layer.addTo(map);
    // A test and bench hook: where a station is drawn (the canvas has no DOM node per station).
    const hook: StationMapHook = { positionOf: (id) => layer.positionOf(id), viewBounds: () => boundsOf(map) };
    (window as Window & { __ffdStationMap?: StationMapHook }).__ffdStationMap = hook;
    return () => {
      layer.remove();
      delete (window as Window & { __ffdStationMap?: StationMapHook }).__ffdStationMap;
    };
  }, [layer, map]);

  useEffect(() => {
    // The data may have been ready before Leaflet's chunk arrived: the draw's own time starts when both are there.
    const start = Math.max(dataReadyAt, readyAt.current);
    // Drawn in the next frame, in a task of its own: the commit that mounts the map (Leaflet's panes, controls and
    // layers) is long already, and the thousands of stations would be drawn inside it (one long task on a phone).
    const frame = requestAnimationFrame(() => {
      const { count } = layer.setPoints(points);
      performance.measure("ffd:map-draw", { start, end: performance.now(), detail: { count } });
      onDrawn(count);
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [layer, points, dataReadyAt, onDrawn]);

  useEffect(() => {
    layer.setDark(theme === "dark");
  }, [layer, theme]);

  useEffect(() => {
    layer.setSelected(selectedId);
  }, [layer, selectedId]);

  useMapEvents({
    click: (event) => {
      const id = layer.hitTest(event.containerPoint.x, event.containerPoint.y);
      if (id !== null) onSelect(id);
      else onPickPoint({ lat: event.latlng.lat, lng: event.latlng.lng });
    },
    mousemove: (event) => {
      map.getContainer().style.cursor =
        layer.hitTest(event.containerPoint.x, event.containerPoint.y) === null ? "" : "pointer";
    },
  });
  return null;
}
