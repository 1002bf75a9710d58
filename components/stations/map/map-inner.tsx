"use client";

import "leaflet/dist/leaflet.css";
import "./station-map.css";

import L from "leaflet";
import { useEffect, useState } from "react";
import { Circle, CircleMarker, MapContainer, TileLayer } from "react-leaflet";

import { useTheme } from "@/components/ui/theme";

import type { LatLng } from "../shared/lat-lng";
import { StateOutlines, useStateOutlines } from "./basemap";
import { METERS_PER_MILE, US_BOUNDS } from "./map-constants";
import { MapLoading } from "./map-loading";
import type { MapInnerProps } from "./map-props";
import { escapeHtml, tileHost, useTileFallback } from "./map-tiles";
import { FitView, ViewReporter } from "./map-view";
import { RouteLayer } from "./route-layer";
import { SelectedPopup } from "./selected-popup";
import { StationLayer } from "./station-layer";

/** Without tiles the vector basemap has no detail past this; with tiles, what tile servers commonly offer. */
const MAX_ZOOM_VECTOR = 13;
const MAX_ZOOM_TILES = 18;
const MIN_ZOOM = 3;
/**
 * Fitting the country (or a state, or a radius) may land between whole zoom levels: at whole levels only, the country
 * filled about two thirds of a wide map and left an empty frame around it (issue 26 item 2).
 */
const ZOOM_SNAP = 0.25;

/**
 * False on the first render, true a task later. The map is created in a commit of its own: when Leaflet's chunk is
 * there before the page's view is (it loads while the catalog renders), React would commit the whole view and create
 * Leaflet's map, panes and controls in one long task.
 */
function useNextTask(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      setReady(true);
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, []);
  return ready;
}

export function MapInner(props: MapInnerProps) {
  const hasTiles = props.tileUrl !== null && !props.tilesFailed;
  const states = useStateOutlines();
  const tileEvents = useTileFallback(props.onTilesFailed);
  // One SVG renderer for the ring and the point, however often a point is chosen and cleared.
  const [ringRenderer] = useState(() => L.svg({ padding: 0.5 }));
  const ready = useNextTask();
  if (!ready) return <MapLoading />;
  return (
    <MapContainer
      bounds={US_BOUNDS}
      preferCanvas
      minZoom={MIN_ZOOM}
      zoomSnap={ZOOM_SNAP}
      maxZoom={hasTiles ? MAX_ZOOM_TILES : MAX_ZOOM_VECTOR}
      worldCopyJump={false}
      className="h-full w-full rounded-xl"
      // Leaflet's keyboard panning works on the focused map; stations are reached through the ranked list.
      keyboard
    >
      <StateOutlines outlines={states} hasTiles={hasTiles} />
      {hasTiles && props.tileUrl !== null ? (
        <TileLayer
          url={props.tileUrl}
          attribution={escapeHtml(props.tileAttribution ?? tileHost(props.tileUrl))}
          maxZoom={MAX_ZOOM_TILES}
          eventHandlers={tileEvents}
        />
      ) : null}
      <StationLayer {...props} />
      {props.near === null ? null : (
        <NearPoint near={props.near} radiusMiles={props.radiusMiles} renderer={ringRenderer} />
      )}
      {props.route === null ? null : (
        <RouteLayer overlay={props.route} renderer={ringRenderer} onSelect={props.onSelect} />
      )}
      {/* A route fits the map to itself (RouteLayer); FitView would take the view back to the whole country. */}
      {props.route === null ? (
        <FitView near={props.near} radiusMiles={props.radiusMiles} state={props.state} outlines={states} />
      ) : null}
      <ViewReporter onViewChange={props.onViewChange} />
      <SelectedPopup {...props} />
    </MapContainer>
  );
}

/** The chosen point and its radius ring, in SVG like the state outlines (which sit in a pane below it). */
function NearPoint({ near, radiusMiles, renderer }: { near: LatLng; radiusMiles: number; renderer: L.Renderer }) {
  // The radius ring in the theme's ink: near-black on the light basemap, near-white on the dark one (≥ 3:1 both).
  const ringColor = useTheme() === "dark" ? "#f1f5f9" : "#0f172a";
  return (
    <>
      <Circle
        center={near}
        radius={radiusMiles * METERS_PER_MILE}
        interactive={false}
        pathOptions={{ color: ringColor, weight: 2, dashArray: "6 6", fill: false }}
        className="ffd-radius-ring"
        renderer={renderer}
      />
      <CircleMarker
        center={near}
        radius={5}
        interactive={false}
        pathOptions={{ color: "#ffffff", weight: 2, fillColor: "#dc2626", fillOpacity: 1 }}
        className="ffd-near-point"
        renderer={renderer}
      />
    </>
  );
}
