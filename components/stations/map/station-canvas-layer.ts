import L from "leaflet";

import { drawOrder, drawSelectionRing, drawSprite, projectToUnit, type Sprite } from "./station-canvas-draw";
import { radiusForClass } from "./station-canvas-layer-shapes";

/**
 * Every station on one canvas, drawn by us rather than as one Leaflet layer per station: 50,000 `CircleMarker`s are
 * 50,000 objects, each projected and hit-tested by Leaflet's renderer, where this layer keeps typed arrays, projects
 * each station once (Web Mercator at zoom 0, scaled per zoom) and stamps a pre-drawn sprite per colour class. The
 * canvas is larger than the view (a margin on each side) so a drag shows stations already drawn; it is redrawn when
 * a move or zoom ends, hidden during the zoom animation (`leaflet-zoom-hide`), and clicks are hit-tested against the
 * positions of the last draw.
 */

export interface StationPoints {
  ids: readonly string[];
  lats: Float64Array;
  lngs: Float64Array;
  /** Colour class per station (0 = cheapest), -1 without a price. */
  classes: Int8Array;
  /** 1 when the price is stale (drawn hollow). */
  stale: Uint8Array;
  /** Colour per class index. */
  colors: readonly string[];
}

export interface DrawResult {
  /** Stations handed to the canvas (all of them, on screen or not). */
  count: number;
}

/** Share of the view's width/height drawn beyond each edge, so a drag reveals stations already drawn. */
const MARGIN = 0.5;
const UNPRICED_COLOR = "#94a3b8";
/** A click this close to a station (in CSS pixels, beyond its radius) selects it. */
const HIT_SLOP = 4;

export class StationCanvasLayer extends L.Layer {
  private canvas: HTMLCanvasElement | null = null;
  private points: StationPoints | null = null;
  /** Web Mercator at zoom 0, in [0, 1]: computed once per data set. */
  private unitX = new Float64Array(0);
  private unitY = new Float64Array(0);
  /** World-pixel positions (at the zoom of the last draw) of the stations drawn, NaN when off the canvas: hit-testing. */
  private screenX = new Float64Array(0);
  private screenY = new Float64Array(0);
  /** The world-pixel rectangle the canvas covers and the zoom it was drawn at: a pan that stays inside needs no redraw. */
  private drawn: { zoom: number; minX: number; minY: number; maxX: number; maxY: number } | null = null;
  private order: Int32Array = new Int32Array(0);
  /** The selected station by id (kept across new points), and its index in the current points. */
  private selectedId: string | null = null;
  private selectedIndex = -1;
  private isDark = false;
  private sprites = new Map<string, Sprite>();
  private readonly onRedraw = () => {
    this.draw();
  };
  /** After a pan: the canvas moved with the map; it is only redrawn once the view leaves what was drawn around it. */
  private readonly onMoveEnd = () => {
    const map = this._map as L.Map | undefined;
    const drawn = this.drawn;
    if (map !== undefined && drawn !== null && drawn.zoom === map.getZoom()) {
      const view = map.getPixelBounds();
      if (
        view.min !== undefined &&
        view.max !== undefined &&
        view.min.x >= drawn.minX &&
        view.min.y >= drawn.minY &&
        view.max.x <= drawn.maxX &&
        view.max.y <= drawn.maxY
      )
        return;
    }
    this.draw();
  };

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create("canvas", "leaflet-zoom-hide ffd-station-canvas");
    this.canvas.setAttribute("aria-hidden", "true");
    map.getPanes().overlayPane.appendChild(this.canvas);
    map.on("zoomend resize viewreset", this.onRedraw);
    map.on("moveend", this.onMoveEnd);
    // Nothing to draw before the first points (sizing the canvas asks Leaflet for the map's size: a forced layout).
    if (this.points !== null) this.draw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off("zoomend resize viewreset", this.onRedraw);
    map.off("moveend", this.onMoveEnd);
    this.canvas?.remove();
    this.canvas = null;
    return this;
  }

  /** Replaces the stations and draws them at once; returns what was drawn. */
  setPoints(points: StationPoints): DrawResult {
    this.points = points;
    const n = points.ids.length;
    ({ x: this.unitX, y: this.unitY } = projectToUnit(points.lats, points.lngs));
    this.order = drawOrder(points.classes, points.colors.length);
    this.sprites.clear();
    this.selectedIndex = this.indexOf(this.selectedId);
    this.draw();
    return { count: n };
  }

  setSelected(id: string | null): void {
    this.selectedId = id;
    const index = this.indexOf(id);
    if (index === this.selectedIndex) return;
    this.selectedIndex = index;
    this.draw();
  }

  setDark(isDark: boolean): void {
    if (isDark === this.isDark) return;
    this.isDark = isDark;
    this.sprites.clear();
    this.draw();
  }

  private indexOf(id: string | null): number {
    return id === null || this.points === null ? -1 : this.points.ids.indexOf(id);
  }

  /** The station under a container point (the nearest within its radius plus a few pixels), or null. */
  hitTest(containerX: number, containerY: number): string | null {
    const points = this.points;
    const world = this.toWorld(containerX, containerY);
    if (points === null || world === null) return null;
    const { x, y } = world;
    let best = -1;
    let bestDistance = Infinity;
    const classCount = points.colors.length;
    for (let i = 0; i < this.screenX.length; i++) {
      const dx = (this.screenX[i] ?? NaN) - x;
      const dy = (this.screenY[i] ?? NaN) - y;
      const d = dx * dx + dy * dy;
      const reach = radiusForClass(points.classes[i] ?? -1, classCount) + HIT_SLOP;
      // Ties go to the station drawn on top (the cheaper one), as the eye sees it.
      if (
        d <= reach * reach &&
        (d < bestDistance || (d === bestDistance && (points.classes[i] ?? 99) < (points.classes[best] ?? 99)))
      ) {
        best = i;
        bestDistance = d;
      }
    }
    return best < 0 ? null : (points.ids[best] ?? null);
  }

  /** Where a station is drawn, in container pixels (for tests and the bench). */
  positionOf(id: string): { x: number; y: number } | null {
    const index = this.points?.ids.indexOf(id) ?? -1;
    const x = this.screenX[index];
    const y = this.screenY[index];
    const origin = this.toWorld(0, 0);
    return x === undefined || y === undefined || Number.isNaN(x) || origin === null
      ? null
      : { x: x - origin.x, y: y - origin.y };
  }

  /** A container point in world pixels at the zoom of the last draw (null when the zoom changed since). */
  private toWorld(containerX: number, containerY: number): { x: number; y: number } | null {
    const map = this._map as L.Map | undefined;
    if (map === undefined || this.drawn?.zoom !== map.getZoom()) return null;
    const min = map.getPixelBounds().min;
    if (min === undefined) return null;
    return { x: containerX + min.x, y: containerY + min.y };
  }

  private draw(): void {
    const map = this._map as L.Map | undefined;
    const canvas = this.canvas;
    if (map === undefined || canvas === null) return;
    const size = map.getSize();
    const padX = Math.round(size.x * MARGIN);
    const padY = Math.round(size.y * MARGIN);
    const width = size.x + 2 * padX;
    const height = size.y + 2 * padY;
    const dpr = window.devicePixelRatio || 1;
    const topLeft = map.containerPointToLayerPoint([-padX, -padY]);
    L.DomUtil.setPosition(canvas, topLeft);
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.width = `${String(width)}px`;
      canvas.style.height = `${String(height)}px`;
    }
    const ctx = canvas.getContext("2d");
    if (ctx === null) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const points = this.points;
    if (points === null) return;

    const n = points.ids.length;
    if (this.screenX.length !== n) {
      this.screenX = new Float64Array(n);
      this.screenY = new Float64Array(n);
    }
    // World pixels at this zoom, minus the container's top-left corner in world pixels.
    const scale = map.options.crs?.scale(map.getZoom()) ?? 256 * 2 ** map.getZoom();
    const origin = map.getPixelBounds().min ?? L.point(0, 0);
    this.drawn = {
      zoom: map.getZoom(),
      minX: origin.x - padX,
      minY: origin.y - padY,
      maxX: origin.x + size.x + padX,
      maxY: origin.y + size.y + padY,
    };
    const classCount = points.colors.length;
    for (let k = 0; k < n; k++) {
      const i = this.order[k] ?? 0;
      const x = (this.unitX[i] ?? 0) * scale - origin.x;
      const y = (this.unitY[i] ?? 0) * scale - origin.y;
      if (x < -padX || y < -padY || x > size.x + padX || y > size.y + padY) {
        this.screenX[i] = NaN;
        this.screenY[i] = NaN;
        continue;
      }
      this.screenX[i] = x + origin.x;
      this.screenY[i] = y + origin.y;
      const classIndex = points.classes[i] ?? -1;
      const sprite = this.sprite(classIndex, points.stale[i] === 1, classCount, points.colors, dpr);
      ctx.drawImage(
        sprite.canvas,
        Math.round((x + padX - sprite.half) * dpr),
        Math.round((y + padY - sprite.half) * dpr),
      );
    }
    const selectedX = (this.screenX[this.selectedIndex] ?? NaN) - origin.x;
    const selectedY = (this.screenY[this.selectedIndex] ?? NaN) - origin.y;
    if (this.selectedIndex >= 0 && !Number.isNaN(selectedX))
      drawSelectionRing(ctx, selectedX + padX, selectedY + padY, dpr, this.isDark);
  }

  /** A pre-drawn dot per (class, stale) at this pixel ratio: drawImage of a sprite is far cheaper than an arc per station. */
  private sprite(
    classIndex: number,
    isStale: boolean,
    classCount: number,
    colors: readonly string[],
    dpr: number,
  ): Sprite {
    const key = `${String(classIndex)}:${isStale ? "s" : "f"}:${String(dpr)}`;
    const cached = this.sprites.get(key);
    if (cached) return cached;
    const color = classIndex < 0 ? UNPRICED_COLOR : (colors[classIndex] ?? UNPRICED_COLOR);
    const sprite = drawSprite(radiusForClass(classIndex, classCount), color, isStale, this.isDark, dpr);
    this.sprites.set(key, sprite);
    return sprite;
  }
}
