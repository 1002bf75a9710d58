import type { LatLng } from "./lat-lng";

/**
 * What the map draws of the route: the path, the corridor's stations, and the plan's numbered stops
 * (route-planner/route-mode.ts makes it, map/route-layer.tsx draws it).
 */
export interface RouteOverlay {
  polyline: LatLng[];
  /** The route's points (from, via…, to), marked on the path with a letter (A, B…) and what they are. */
  points: readonly RoutePointMark[];
  corridor: readonly { id: string; lat: number; lng: number }[];
  stops: readonly { id: string; lat: number; lng: number; label: string }[];
}

/** A route point on the map: its letter in route order, and a title naming it ("Start A: Dallas, TX"). */
export interface RoutePointMark extends LatLng {
  letter: string;
  title: string;
}
