"use client";

import { useQuery } from "@tanstack/react-query";
import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { GeoJSON, Pane, useMap } from "react-leaflet";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

import { outlineBatches } from "./outline-batches";

/**
 * us-atlas's TopoJSON of the 50 states and DC (unprojected WGS84, 1:10,000,000), served by the app itself as a static
 * file (`public/basemap/`, a copy of `us-atlas/states-10m.json` that a unit test keeps identical): 115 kB of JSON,
 * 37 kB gzip-compressed, that no longer weighs on the map's JavaScript chunk and is cached apart from app releases.
 */
const BASEMAP_URL = "/basemap/us-states-10m.json";
/**
 * The outlines' own pane, between the tiles (200) and the overlay pane (400) where the stations' canvas, the radius ring
 * and the "near" point are: they stay above the filled states whatever order their layers arrive in.
 */
const BASEMAP_PANE = "ffd-basemap";
const BASEMAP_PANE_Z = 350;

type StatesTopology = Topology<{ states: GeometryCollection }>;

/** The state outlines as GeoJSON once fetched; null while loading or if the file cannot be had (stations still draw). */
export function useStateOutlines(): GeoJSON.FeatureCollection | null {
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

/** The attribution of the outlines' data, shown with the map's other attributions while the outlines are. */
const BASEMAP_ATTRIBUTION = "US states: US Census Bureau via us-atlas";
/** The outlines' attribution, added once (given to the GeoJSON layer, each of its 56 polygons re-rendered it). */
function BasemapAttribution() {
  const map = useMap();
  useEffect(() => {
    const control = map.attributionControl as L.Control.Attribution | undefined;
    control?.addAttribution(BASEMAP_ATTRIBUTION);
    return () => {
      control?.removeAttribution(BASEMAP_ATTRIBUTION);
    };
  }, [map]);
  return null;
}

/** The outlines in batches (outline-batches.ts), revealed one more per task until all are on the map. */
function useOutlineBatches(outlines: GeoJSON.FeatureCollection | null): GeoJSON.FeatureCollection[] {
  const batches = useMemo(() => outlineBatches(outlines), [outlines]);
  const [revealed, setRevealed] = useState(0);
  useEffect(() => {
    if (revealed >= batches.length) return;
    const timer = setTimeout(() => {
      setRevealed((n) => n + 1);
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, [revealed, batches.length]);
  return batches.slice(0, revealed);
}

/** The filled state outlines (only their strokes over raster tiles), in their own pane below the stations. */
export function StateOutlines({
  outlines,
  hasTiles,
}: {
  outlines: GeoJSON.FeatureCollection | null;
  hasTiles: boolean;
}) {
  const [renderer] = useState(() => L.svg({ padding: 0.5, pane: BASEMAP_PANE }));
  // SVG, not the shared canvas: the outlines take their colours from CSS (light/dark theme). GeoJSON applies its style
  // to each feature's layer before adding it, so the style's renderer is the one used.
  const style = useMemo(
    () => ({ className: hasTiles ? "ffd-state ffd-state-over-tiles" : "ffd-state", renderer }),
    [hasTiles, renderer],
  );
  const batches = useOutlineBatches(outlines);
  return (
    <Pane name={BASEMAP_PANE} style={{ zIndex: BASEMAP_PANE_Z }}>
      {outlines === null ? null : <BasemapAttribution />}
      {batches.map((batch, i) => (
        // A batch never changes once made (the outlines are fetched once): its index is its identity.
        <GeoJSON key={i} data={batch} interactive={false} style={style} />
      ))}
    </Pane>
  );
}
