"use client";

import dynamic from "next/dynamic";

import { MapLoading } from "./map-loading";

/**
 * The Leaflet map, loaded only by the stations page and only in the browser: Leaflet touches `window` when imported
 * (it sets `window.L`), and its code and CSS stay out of every other page's bundle.
 */
export const StationMap = dynamic(() => import("./map-inner").then((m) => m.MapInner), {
  ssr: false,
  loading: () => <MapLoading />,
});
