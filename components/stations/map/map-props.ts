import type { Station } from "@/lib/model";

import type { LatLng } from "../shared/lat-lng";
import type { RouteOverlay } from "../shared/route-overlay";
import type { PriceScale } from "./price-scale";
import type { StationPoints } from "./station-canvas-layer";

/**
 * What the map is given (station-map.tsx → map-inner.tsx and its parts). Its own module, so the parts that read these
 * props (station-layer, selected-popup) do not import map-inner, which imports them.
 */

/** The map's view: latitudes and longitudes of its edges. */
export interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
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
  /** The Route mode's path, corridor and fill stops; null in "cheapest near here" or before a route is chosen. */
  route: RouteOverlay | null;
}
