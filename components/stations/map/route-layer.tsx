"use client";

import L from "leaflet";
import { useEffect, useMemo, useRef } from "react";
import { CircleMarker, Marker, Polyline, useMap } from "react-leaflet";

import { useTheme } from "@/components/ui/theme";

import type { RouteOverlay } from "../shared/route-overlay";
import { escapeHtml } from "./map-tiles";

/**
 * The Route mode on the map: the great-circle path (dashed: a straight-line approximation, not roads), its points,
 * a ring around each corridor station (the dots under them keep their price colours), and the fill plan's stops as
 * numbered markers matching the plan table. The map fits the route when its points change; panning stays the user's.
 */
export function RouteLayer({
  overlay,
  renderer,
  onSelect,
}: {
  overlay: RouteOverlay;
  renderer: L.Renderer;
  onSelect: (id: string) => void;
}) {
  // The theme's ink, as the radius ring: ≥ 3:1 on both basemaps.
  const ink = useTheme() === "dark" ? "#f1f5f9" : "#0f172a";
  useFitRoute(overlay.polyline);
  const line = useMemo(() => overlay.polyline.map((p): [number, number] => [p.lat, p.lng]), [overlay.polyline]);
  return (
    <>
      <Polyline
        positions={line}
        interactive={false}
        pathOptions={{ color: ink, weight: 3, dashArray: "8 6" }}
        className="ffd-route-line"
        renderer={renderer}
      />
      {overlay.corridor.map((s) => (
        <CircleMarker
          key={s.id}
          center={[s.lat, s.lng]}
          radius={7}
          interactive={false}
          pathOptions={{ color: ink, weight: 1.5, fill: false }}
          className="ffd-route-corridor"
          renderer={renderer}
        />
      ))}
      {overlay.points.map((p, i) => (
        <Marker
          key={`${String(i)}:${String(p.lat)},${String(p.lng)}`}
          position={[p.lat, p.lng]}
          icon={pointIcon(p.letter, p.title)}
          title={p.title}
          alt={p.title}
          interactive={false}
          keyboard={false}
        />
      ))}
      {overlay.stops.map((stop) => (
        <Marker
          key={stop.id}
          position={[stop.lat, stop.lng]}
          icon={stopIcon(stop.label)}
          title={`Fill stop ${stop.label}`}
          alt={`Fill stop ${stop.label}`}
          eventHandlers={{
            click: () => {
              onSelect(stop.id);
            },
          }}
        />
      ))}
    </>
  );
}

/** A numbered disc: white figures on near-black (15:1), with a white edge that stands out on either basemap. */
function stopIcon(label: string): L.DivIcon {
  return L.divIcon({
    className: "ffd-route-stop",
    html: `<span aria-hidden="true">${label.replace(/\D/g, "")}</span>`,
    iconSize: [24, 24],
    iconAnchor: [12, 12],
  });
}

/**
 * A route point: its letter (A, B…) on a white square, unlike the round numbered stops. A divIcon takes no alt, so
 * its words ("Start A: Dallas, TX") are in the icon for screen readers, escaped (the label comes from the link).
 */
function pointIcon(letter: string, title: string): L.DivIcon {
  return L.divIcon({
    className: "ffd-route-point",
    html: `<span aria-hidden="true">${letter.replace(/[^A-Z]/g, "")}</span><span class="sr-only">${escapeHtml(title)}</span>`,
    iconSize: [22, 22],
    iconAnchor: [11, 11],
  });
}

/** Fits the map to the route once per new route (not on every render: panning and zooming stay the user's). */
function useFitRoute(polyline: readonly { lat: number; lng: number }[]) {
  const map = useMap();
  const fitted = useRef("");
  const first = polyline[0];
  const last = polyline.at(-1);
  const key = `${String(polyline.length)}:${String(first?.lat)},${String(first?.lng)}:${String(last?.lat)},${String(last?.lng)}`;
  useEffect(() => {
    if (polyline.length < 2 || fitted.current === key) return;
    fitted.current = key;
    map.fitBounds(L.latLngBounds(polyline.map((p) => L.latLng(p.lat, p.lng))), { padding: [24, 24], animate: false });
  }, [map, key, polyline]);
}
