"use client";

import "leaflet/dist/leaflet.css";
import "./station-map.css";
import L from "leaflet";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import {
  Circle,
  CircleMarker,
  GeoJSON,
  MapContainer,
  Pane,
  Popup,
  TileLayer,
  useMap,
  useMapEvents,
} from "react-leaflet";
import { useQuery } from "@tanstack/react-query";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Station } from "@/lib/model";
import { US_STATE_FIPS, type UsStateCode } from "@/lib/model/us-states";
import { formatUnitPrice } from "@/lib/format/numbers";
import { useTheme } from "@/components/ui/theme";
import type { LatLng } from "./nearby";
import type { PriceScale } from "./price-scale";
import { StationCanvasLayer, type StationPoints } from "./station-canvas-layer";
import { brandName, describeAge } from "./format";
import type { ViewBounds } from "./view-state";

/** The contiguous United States, where the catalog's stations are. */
const US_BOUNDS: L.LatLngBoundsExpression = [
  [24.4, -125],
  [49.5, -66.9],
];
/** Without tiles the vector basemap has no detail past this; with tiles, what tile servers commonly offer. */
const MAX_ZOOM_VECTOR = 13;
const MAX_ZOOM_TILES = 18;
const MIN_ZOOM = 3;
/** Tile failures before the map gives up on the tile server (when no tile has loaded at all). */
const TILE_FAILURES_BEFORE_FALLBACK = 4;
const METERS_PER_MILE = 1609.344;

/**
 * us-atlas's TopoJSON of the 50 states and DC (unprojected WGS84, 1:10,000,000), served by the app itself as a static
 * file (`public/basemap/`, a copy of `us-atlas/states-10m.json` that a unit test keeps identical): 115 kB of JSON,
 * 37 kB gzip-compressed, that no longer weighs on the map's JavaScript chunk and is cached apart from app releases.
 */
export const BASEMAP_URL = "/basemap/us-states-10m.json";
/**
 * The outlines' own pane, between the tiles (200) and the overlay pane (400) where the stations' canvas, the radius ring
 * and the "near" point are: they stay above the filled states whatever order their layers arrive in.
 */
const BASEMAP_PANE = "ffd-basemap";
const BASEMAP_PANE_Z = 350;

type StatesTopology = Topology<{ states: GeometryCollection }>;

/** The state outlines as GeoJSON once fetched; null while loading or if the file cannot be had (stations still draw). */
function useStateOutlines(): GeoJSON.FeatureCollection | null {
  const { data } = useQuery({
    queryKey: ["basemap", BASEMAP_URL],
    queryFn: async ({ signal }) => {
      const response = await fetch(BASEMAP_URL, { signal });
      if (!response.ok) throw new Error(`The basemap answered HTTP ${String(response.status)}`);
      const topology = (await response.json()) as StatesTopology;
      return feature(topology, topology.objects.states);
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return data ?? null;
}

export interface MapInnerProps {
  stations: readonly Station[];
  points: StationPoints;
  scale: PriceScale;
  /** `performance.now()` when the data of this draw was ready for the map (start of the `ffd:map-draw` measure). */
  dataReadyAt: number;
  staleIds: ReadonlySet<string>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  near: LatLng | null;
  radiusMiles: number;
  /** The state filter: choosing one brings that state into view (unless a point is chosen, whose radius decides). */
  state: string | null;
  onPickPoint: (point: LatLng) => void;
  /** The map's view after every move and zoom (and once at the start): the "stations in view" colour scale uses it. */
  onViewChange: (bounds: ViewBounds) => void;
  /** Called after each draw with the number of stations drawn (the page sets `data-drawn-count`). */
  onDrawn: (count: number) => void;
  tileUrl: string | null;
  tileAttribution: string | null;
  onTilesFailed: () => void;
  tilesFailed: boolean;
  now: number;
  /**
   * While another product ranks the list: a line for the popup about that product at this station ("Unleaded
   * $3.159", "No DEF", "Unleaded not checked"), and the popup names the price it shows as diesel. Null otherwise.
   */
  describeProduct: ((id: string) => string) | null;
}

export function MapInner(props: MapInnerProps) {
  const hasTiles = props.tileUrl !== null && !props.tilesFailed;
  // The radius ring in the theme's ink: near-black on the light basemap, near-white on the dark one (≥ 3:1 both).
  const ringColor = useTheme() === "dark" ? "#f1f5f9" : "#0f172a";
  // SVG, like the state outlines (which sit in a pane below it).
  const [ringRenderer] = useState(() => L.svg({ padding: 0.5 }));
  const [basemapRenderer] = useState(() => L.svg({ padding: 0.5, pane: BASEMAP_PANE }));
  const states = useStateOutlines();
  const tileEvents = useTileFallback(props.onTilesFailed);
  return (
    <MapContainer
      bounds={US_BOUNDS}
      preferCanvas
      minZoom={MIN_ZOOM}
      maxZoom={hasTiles ? MAX_ZOOM_TILES : MAX_ZOOM_VECTOR}
      worldCopyJump={false}
      className="h-full w-full rounded-xl"
      // Leaflet's keyboard panning works on the focused map; stations are reached through the ranked list.
      keyboard
    >
      <Pane name={BASEMAP_PANE} style={{ zIndex: BASEMAP_PANE_Z }}>
        {states === null ? null : (
          <GeoJSON
            data={states}
            interactive={false}
            // SVG, not the shared canvas: the outlines take their colours from CSS (light/dark theme). GeoJSON applies
            // its style to each feature's layer before adding it, so the style's renderer is the one used.
            style={
              {
                className: hasTiles ? "ffd-state ffd-state-over-tiles" : "ffd-state",
                renderer: basemapRenderer,
              } as L.PathOptions
            }
            attribution="US states: US Census Bureau via us-atlas"
          />
        )}
      </Pane>
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
        <>
          <Circle
            center={props.near}
            radius={props.radiusMiles * METERS_PER_MILE}
            interactive={false}
            pathOptions={{ color: ringColor, weight: 2, dashArray: "6 6", fill: false }}
            className="ffd-radius-ring"
            renderer={ringRenderer}
          />
          <CircleMarker
            center={props.near}
            radius={5}
            interactive={false}
            pathOptions={{ color: "#ffffff", weight: 2, fillColor: "#dc2626", fillOpacity: 1 }}
            className="ffd-near-point"
            renderer={ringRenderer}
          />
        </>
      )}
      <FitView near={props.near} radiusMiles={props.radiusMiles} state={props.state} outlines={states} />
      <ViewReporter onViewChange={props.onViewChange} />
      <SelectedPopup {...props} />
    </MapContainer>
  );
}

/** Leaflet writes attributions as HTML: the operator's plain text is escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);
}

function tileHost(url: string): string {
  try {
    return `Tiles: ${new URL(url.replace(/\{s\}\./, "")).host}`;
  } catch {
    return "Tiles";
  }
}

function useTileFallback(onFailed: () => void): L.LeafletEventHandlerFnMap {
  const state = useRef({ loaded: 0, failed: 0 });
  return useMemo(
    () => ({
      tileload: () => {
        state.current.loaded++;
      },
      tileerror: () => {
        state.current.failed++;
        if (state.current.loaded === 0 && state.current.failed >= TILE_FAILURES_BEFORE_FALLBACK) onFailed();
      },
    }),
    [onFailed],
  );
}

interface StationMapHook {
  positionOf: (id: string) => { x: number; y: number } | null;
  /** The map's view (south, west, north, east). */
  viewBounds: () => ViewBounds;
}

function boundsOf(map: L.Map): ViewBounds {
  const b = map.getBounds();
  return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
}

/** The stations' canvas layer: created once, fed new points on every filter change, measured on every draw. */
function StationLayer({ points, dataReadyAt, selectedId, onSelect, onPickPoint, onDrawn }: MapInnerProps) {
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
    const { count } = layer.setPoints(points);
    performance.measure("ffd:map-draw", { start, end: performance.now(), detail: { count } });
    onDrawn(count);
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

/**
 * Brings into view what the person asked about: a chosen point (typed, "Use my location", a shared link) with its
 * radius, so the stations ranked beside the map are the ones on screen; else a state chosen in the filter (its outline's
 * bounds, once the outlines are there), or the whole country when the state filter is cleared. Only when one of those
 * changes: panning and zooming stay the user's.
 */
function FitView({
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
function ViewReporter({ onViewChange }: { onViewChange: (bounds: ViewBounds) => void }) {
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

/** The popup of the selected station; selecting from the list brings the station into view first. */
function SelectedPopup({ stations, selectedId, onSelect, scale, staleIds, now, describeProduct }: MapInnerProps) {
  const map = useMap();
  const station = useMemo(
    () => (selectedId === null ? null : (stations.find((s) => s.id === selectedId) ?? null)),
    [stations, selectedId],
  );
  const selectedRef = useRef(selectedId);
  useEffect(() => {
    selectedRef.current = selectedId;
  }, [selectedId]);

  useEffect(() => {
    if (station === null) return;
    if (!map.getBounds().pad(-0.1).contains([station.lat, station.lng])) map.panTo([station.lat, station.lng]);
  }, [map, station]);

  if (station === null) return null;
  const price = station.price === null ? null : Number(station.price);
  const classIndex = scale.classOf(price);
  const priceClass = scale.classes[classIndex];
  const isStale = staleIds.has(station.id);
  return (
    <Popup
      key={station.id}
      position={[station.lat, station.lng]}
      eventHandlers={{
        // Closed by its ×, Escape or a click elsewhere; not when another station replaced it.
        remove: () => {
          if (selectedRef.current === station.id) onSelect(null);
        },
      }}
    >
      <div data-testid="station-popup" className="space-y-1 text-sm">
        <p className="text-base font-semibold">{station.name}</p>
        <p>
          {brandName(station.brand)} · #{station.locNum} · {station.city}, {station.state}
        </p>
        <p>
          {describeProduct === null ? null : "Diesel "}
          <span className="font-semibold">{station.price === null ? "No price" : formatUnitPrice(station.price)}</span>
          {priceClass === undefined ? null : ` · price class ${priceClass.label} of ${String(scale.classes.length)}`}
        </p>
        {describeProduct === null ? null : <p data-testid="popup-product">{describeProduct(station.id)}</p>}
        <p>
          {station.priceUpdatedAt === null ? "Never updated" : `Updated ${describeAge(station.priceUpdatedAt, now)}`}
          {isStale ? " (stale)" : ""}
        </p>
        <p>
          <Link href={`/stations/${encodeURIComponent(station.id)}`} className="font-medium underline">
            Station details
          </Link>
        </p>
      </div>
    </Popup>
  );
}
