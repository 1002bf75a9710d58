import { useId } from "react";

import { formatCount, formatPriceRange } from "@/lib/format/numbers";

import type { ColourScale } from "../view-state";
import type { PriceScale } from "./price-scale";
import { radiusForClass } from "./station-canvas-layer-shapes";

export interface PriceLegendProps {
  scale: PriceScale;
  staleCount: number;
  unpricedCount: number;
  rankedProduct?: string | null;
  /** Which stations the classes are computed from, and how to change it. */
  colourScale: ColourScale;
  onColourScaleChange: (scale: ColourScale) => void;
  /** Stations the filters show, and those of them in the map's view (null until the map has reported its view). */
  shownCount: number;
  inViewCount: number | null;
  hasFilters: boolean;
}

/**
 * The key to the map: which stations the colours compare with (the national scale or the stations in view, a choice
 * kept in the URL), each class's number, dot (colour and size) and printed price range, so no meaning rests on colour
 * alone; then the stale and no-price marks.
 */
export function PriceLegend({
  scale,
  staleCount,
  unpricedCount,
  rankedProduct = null,
  colourScale,
  onColourScaleChange,
  shownCount,
  inViewCount,
  hasFilters,
}: PriceLegendProps) {
  const classCount = scale.classes.length;
  const allText = hasFilters
    ? `all ${formatCount(shownCount)} stations the filters show`
    : `all ${formatCount(shownCount)} stations, nationwide`;
  const inViewText =
    inViewCount === null
      ? "the stations in the map's view"
      : `the ${formatCount(inViewCount)} ${inViewCount === 1 ? "station" : "stations"} in the map's view`;
  return (
    <div data-testid="price-legend" className="space-y-3 text-sm">
      <ColourScaleChoice colourScale={colourScale} onChange={onColourScaleChange} />
      <p data-testid="legend-scale-note" className="text-slate-700 dark:text-slate-300">
        {colourScale === "all" ? (
          <>
            <strong>National scale:</strong> classes are sevenths of the prices of {allText}.
          </>
        ) : (
          <>
            <strong>Stations in view:</strong> classes are sevenths of the prices of {inViewText}, so the cheaper ones
            around you stand out.
          </>
        )}
      </p>
      {rankedProduct === null ? null : (
        <p
          data-testid="legend-product-note"
          className="rounded-md border border-slate-200 p-2 text-slate-700 dark:border-slate-700 dark:text-slate-300"
        >
          The map colours <strong>diesel</strong> prices, the catalog&apos;s price for every station. {rankedProduct}{" "}
          prices are only known for the stations checked near your point: the list beside the map ranks those.
        </p>
      )}
      {classCount === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">No station shown has a price.</p>
      ) : (
        <ClassTable
          scale={scale}
          caption={`Price classes of ${colourScale === "all" ? allText : inViewText}, cheapest first`}
        />
      )}
      <Marks staleCount={staleCount} unpricedCount={unpricedCount} />
    </div>
  );
}

/** Which stations the colours compare with: a choice kept in the URL. */
function ColourScaleChoice({
  colourScale,
  onChange,
}: {
  colourScale: ColourScale;
  onChange: (scale: ColourScale) => void;
}) {
  const legendId = useId();
  return (
    <fieldset>
      <legend id={legendId} className="font-medium text-slate-800 dark:text-slate-200">
        Colour by
      </legend>
      <div className="mt-1 space-y-1">
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name={legendId}
            className="mt-1"
            checked={colourScale === "all"}
            onChange={() => {
              onChange("all");
            }}
          />
          <span>
            National prices <span className="text-slate-600 dark:text-slate-400">(every station the filters show)</span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name={legendId}
            className="mt-1"
            checked={colourScale === "view"}
            onChange={() => {
              onChange("view");
            }}
          />
          <span>
            The stations in view{" "}
            <span className="text-slate-600 dark:text-slate-400">(follows panning and zooming)</span>
          </span>
        </label>
      </div>
    </fieldset>
  );
}

/** Each class's number, dot (colour and size) and printed price range, so no meaning rests on colour alone. */
function ClassTable({ scale, caption }: { scale: PriceScale; caption: string }) {
  const classCount = scale.classes.length;
  return (
    <table className="w-full text-left">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          <th scope="col" className="pb-1 pr-2 font-medium">
            Class
          </th>
          <th scope="col" className="pb-1 pr-2 font-medium">
            Price per gallon
          </th>
          <th scope="col" className="pb-1 text-right font-medium">
            Stations
          </th>
        </tr>
      </thead>
      <tbody>
        {scale.classes.map((c) => (
          <tr key={c.index} data-testid="legend-class">
            <th scope="row" className="py-0.5 pr-2 font-normal">
              <span className="inline-flex items-center gap-2">
                <Dot color={c.color} radius={radiusForClass(c.index, classCount)} />
                <span className="tabular-nums">
                  {c.label}
                  {c.index === 0 ? <span className="text-slate-600 dark:text-slate-400"> cheapest</span> : null}
                  {c.index === classCount - 1 && classCount > 1 ? (
                    <span className="text-slate-600 dark:text-slate-400"> priciest</span>
                  ) : null}
                </span>
              </span>
            </th>
            <td className="py-0.5 pr-2 tabular-nums text-slate-900 dark:text-slate-100">
              {formatPriceRange(c.min, c.max)}
            </td>
            <td className="py-0.5 text-right tabular-nums text-slate-700 dark:text-slate-300">
              {formatCount(c.count)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The stale and no-price marks. */
function Marks({ staleCount, unpricedCount }: { staleCount: number; unpricedCount: number }) {
  return (
    <ul className="space-y-1 text-slate-700 dark:text-slate-300">
      <li className="flex items-center gap-2">
        <Dot color="#64748b" radius={4.5} hollow />
        <span>Hollow ring: price not updated for more than 2 days ({formatCount(staleCount)} shown)</span>
      </li>
      {unpricedCount > 0 ? (
        <li className="flex items-center gap-2">
          <Dot color="#94a3b8" radius={3} />
          <span>Grey: no price ({formatCount(unpricedCount)})</span>
        </li>
      ) : null}
    </ul>
  );
}

function Dot({ color, radius, hollow = false }: { color: string; radius: number; hollow?: boolean }) {
  const size = 16;
  return (
    <svg
      aria-hidden="true"
      width={size}
      height={size}
      viewBox={`0 0 ${String(size)} ${String(size)}`}
      className="shrink-0"
    >
      <circle
        cx={size / 2}
        cy={size / 2}
        r={radius}
        fill={hollow ? "transparent" : color}
        stroke={hollow ? color : "currentColor"}
        strokeWidth={hollow ? 2 : 1}
        strokeOpacity={hollow ? 1 : 0.7}
      />
    </svg>
  );
}
