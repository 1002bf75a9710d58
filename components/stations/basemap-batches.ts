export function countCoordinates(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  if (typeof value[0] === "number") return 1;
  let n = 0;
  for (const item of value as unknown[]) n += countCoordinates(item);
  return n;
}

/** The features in order, cut into collections of about `perBatch` coordinates (a bigger feature makes its own batch). */
export function batchFeatures(outlines: GeoJSON.FeatureCollection, perBatch: number): GeoJSON.FeatureCollection[] {
  const batches: GeoJSON.FeatureCollection[] = [];
  let current: GeoJSON.Feature[] = [];
  let size = 0;
  for (const f of outlines.features) {
    const n = f.geometry.type === "GeometryCollection" ? 0 : countCoordinates(f.geometry.coordinates);
    if (current.length > 0 && size + n > perBatch) {
      batches.push({ type: "FeatureCollection", features: current });
      current = [];
      size = 0;
    }
    current.push(f);
    size += n;
  }
  if (current.length > 0) batches.push({ type: "FeatureCollection", features: current });
  return batches;
}
