/** Dot sizes shared by the canvas layer and the legend (kept apart from the layer, which imports Leaflet). */

/** The cheapest class is drawn largest, the priciest smallest: size repeats what colour says. */
export const MAX_RADIUS = 6;
const MIN_RADIUS = 3;

export function radiusForClass(classIndex: number, classCount: number): number {
  if (classIndex < 0) return MIN_RADIUS;
  if (classCount <= 1) return (MAX_RADIUS + MIN_RADIUS) / 2;
  return MAX_RADIUS - ((MAX_RADIUS - MIN_RADIUS) * classIndex) / (classCount - 1);
}
