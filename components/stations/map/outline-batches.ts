/**
 * States per GeoJSON layer of the basemap. Leaflet projects and simplifies every outline of a layer when the layer is
 * added: the 56 of them at once were one long task on a phone (~80 ms at Lighthouse's 4× CPU slowdown); added a batch
 * per task (basemap.tsx), no task is long.
 */
export const OUTLINES_PER_BATCH = 8;

/** The outlines in batches of `size` features, in their order (an empty list for none). */
export function outlineBatches(
  outlines: GeoJSON.FeatureCollection | null,
  size: number = OUTLINES_PER_BATCH,
): GeoJSON.FeatureCollection[] {
  const features = outlines?.features ?? [];
  const batches: GeoJSON.FeatureCollection[] = [];
  for (let i = 0; i < features.length; i += size)
    batches.push({ type: "FeatureCollection", features: features.slice(i, i + size) });
  return batches;
}
