"use client";

import type L from "leaflet";
import { useMemo, useRef } from "react";

/** Tile failures before the map gives up on the tile server (when no tile has loaded at all). */
const TILE_FAILURES_BEFORE_FALLBACK = 4;

/** Leaflet writes attributions as HTML: the operator's plain text is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);
}

/** The attribution of a tile server the operator did not name: its host. */
export function tileHost(url: string): string {
  try {
    return `Tiles: ${new URL(url.replace(/\{s\}\./, "")).host}`;
  } catch {
    return "Tiles";
  }
}

/** The tile layer's events: when no tile ever loads and several fail, the map falls back to its own basemap. */
export function useTileFallback(onFailed: () => void): L.LeafletEventHandlerFnMap {
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
