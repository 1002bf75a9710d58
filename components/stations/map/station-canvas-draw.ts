/** The station canvas layer's drawing pieces that need no map: projection, draw order, sprites, the selection ring. */
import { MAX_RADIUS } from "./station-canvas-layer-shapes";

const MAX_LATITUDE = 85.0511287798;

export interface Sprite {
  canvas: HTMLCanvasElement;
  /** Half the sprite's size in CSS pixels. */
  half: number;
  radius: number;
}

/** Web Mercator at zoom 0, in [0, 1] (x east, y south): computed once per data set, scaled per zoom when drawing. */
export function projectToUnit(
  lats: ArrayLike<number>,
  lngs: ArrayLike<number>,
): { x: Float64Array<ArrayBuffer>; y: Float64Array<ArrayBuffer> } {
  const n = lats.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const toRad = Math.PI / 180;
  for (let i = 0; i < n; i++) {
    const lat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lats[i] ?? 0));
    const sin = Math.sin(lat * toRad);
    x[i] = (lngs[i] ?? 0) / 360 + 0.5;
    y[i] = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  }
  return { x, y };
}

/**
 * Stations without a price first, then the priciest class down to the cheapest, so cheap stations end up on top where
 * dots overlap. A counting sort: linear, stable.
 */
export function drawOrder(classes: Int8Array, classCount: number): Int32Array {
  const bucketOf = (c: number) => (c < 0 ? 0 : classCount - c);
  const starts = new Int32Array(classCount + 2);
  for (const c of classes) starts[bucketOf(c) + 1] = (starts[bucketOf(c) + 1] ?? 0) + 1;
  for (let b = 1; b < starts.length; b++) starts[b] = (starts[b] ?? 0) + (starts[b - 1] ?? 0);
  const order = new Int32Array(classes.length);
  classes.forEach((c, i) => {
    const b = bucketOf(c);
    order[starts[b] ?? 0] = i;
    starts[b] = (starts[b] ?? 0) + 1;
  });
  return order;
}

/** A pre-drawn dot at this pixel ratio: drawImage of a sprite is far cheaper than an arc per station. */
export function drawSprite(radius: number, color: string, isStale: boolean, isDark: boolean, dpr: number): Sprite {
  const half = Math.ceil(radius + 2);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = Math.ceil(2 * half * dpr);
  const ctx = canvas.getContext("2d");
  if (ctx !== null) {
    ctx.scale(dpr, dpr);
    ctx.beginPath();
    ctx.arc(half, half, radius, 0, 2 * Math.PI);
    if (isStale) {
      // Stale: a hollow ring in the class colour (explained in the legend), so old prices never pass for current ones.
      ctx.fillStyle = isDark ? "#0f172a" : "#ffffff";
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = color;
      ctx.stroke();
    } else {
      ctx.fillStyle = color;
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = isDark ? "rgba(248,250,252,0.85)" : "rgba(15,23,42,0.75)";
      ctx.stroke();
    }
  }
  return { canvas, half, radius };
}

/** The selection: a thick ring in the text colour around a white one, visible on any class colour. */
export function drawSelectionRing(ctx: CanvasRenderingContext2D, cx: number, cy: number, dpr: number, isDark: boolean) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.beginPath();
  ctx.arc(cx, cy, MAX_RADIUS + 5, 0, 2 * Math.PI);
  ctx.lineWidth = 4;
  ctx.strokeStyle = isDark ? "#f8fafc" : "#0f172a";
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(cx, cy, MAX_RADIUS + 2, 0, 2 * Math.PI);
  ctx.lineWidth = 2;
  ctx.strokeStyle = isDark ? "#0f172a" : "#ffffff";
  ctx.stroke();
}
