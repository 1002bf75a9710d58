import type { Station } from "@/lib/model";

import { isStale } from "../shared/price-age";
import { buildPriceScale, type PriceScale } from "./price-scale";
import type { StationPoints } from "./station-canvas-layer";

export interface StationsOnMap {
  points: StationPoints;
  scale: PriceScale;
  staleIds: ReadonlySet<string>;
  /** `performance.now()` when this data set was ready: the start of its `ffd:map-draw` measure. */
  readyAt: number;
}

const priceOf = (s: Station): number | null => (s.price === null ? null : Number(s.price));

/**
 * What the map draws for the stations shown: the quantile scale of the prices of `scaleStations` (the stations shown,
 * or those of them in the map's view) and typed arrays for the canvas layer. Built outside React's render purity rules
 * on purpose (it stamps the time it was called).
 */
export function buildStationsOnMap(
  stations: readonly Station[],
  now: number,
  scaleStations: readonly Station[] = stations,
  readyAt: number = performance.now(),
): StationsOnMap {
  const n = stations.length;
  const prices = stations.map(priceOf);
  const scale = buildPriceScale(scaleStations === stations ? prices : scaleStations.map(priceOf));
  const lats = new Float64Array(n);
  const lngs = new Float64Array(n);
  const classes = new Int8Array(n);
  const stale = new Uint8Array(n);
  const staleIds = new Set<string>();
  stations.forEach((s, i) => {
    lats[i] = s.lat;
    lngs[i] = s.lng;
    classes[i] = scale.classOf(prices[i] ?? null);
    if (isStale(s.priceUpdatedAt, now)) {
      stale[i] = 1;
      staleIds.add(s.id);
    }
  });
  return {
    points: { ids: stations.map((s) => s.id), lats, lngs, classes, stale, colors: scale.classes.map((c) => c.color) },
    scale,
    staleIds,
    readyAt,
  };
}
