import type L from "leaflet";

/** The contiguous United States, where the catalog's stations are. */
export const US_BOUNDS: L.LatLngBoundsExpression = [
  [24.4, -125],
  [49.5, -66.9],
];
export const METERS_PER_MILE = 1609.344;
