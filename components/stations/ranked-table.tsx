"use client";

import Link from "next/link";
import { type RefObject, useEffect, useRef } from "react";

import { describeAge } from "@/lib/format/dates";
import { formatCount, formatUnitPrice } from "@/lib/format/numbers";
import type { Station } from "@/lib/model";

import { brandName } from "./brand-name";
import { describeDifference, type NearbyRanking, type StationWithin } from "./nearby";
import { isStale } from "./view-state";

export interface RankedTableProps {
  items: NearbyRanking["items"];
  selectedId: string | null;
  onSelect: (id: string) => void;
  now: number;
  hasDistance: boolean;
  /** The price column's heading: "Price" (the catalog's), or the product ranked ("Unleaded"). */
  priceLabel: string;
  emptyMessage: string;
  /** Checked stations without a price for the product, listed after the ranking as such ("No DEF"). */
  unpricedRows?: readonly StationWithin[];
  unpricedLabel?: string;
  /** The heading of those rows. */
  unpricedHeading?: string;
}

/** What every row of the table needs besides its station. */
interface RowContext {
  selectedId: string | null;
  selectedRow: RefObject<HTMLTableRowElement | null>;
  onSelect: (id: string) => void;
  now: number;
  hasDistance: boolean;
}

/**
 * A station chosen on the map: its row is scrolled into view inside the list only. (scrollIntoView would scroll the
 * page too, taking the map and its popup off screen.)
 */
function useSelectedRowInView(selectedId: string | null) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const row = selectedRow.current;
    const box = scroller.current;
    if (row === null || box === null) return;
    const rowTop = row.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    const header = box.querySelector("thead")?.getBoundingClientRect().height ?? 0;
    if (rowTop - header < box.scrollTop) box.scrollTop = rowTop - header;
    else if (rowTop + row.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = rowTop + row.offsetHeight - box.clientHeight;
  }, [selectedId]);
  return { selectedRow, scroller };
}

export function RankedTable({
  items,
  selectedId,
  onSelect,
  now,
  hasDistance,
  priceLabel,
  emptyMessage,
  unpricedRows = [],
  unpricedLabel = "No price",
  unpricedHeading = "Checked, without a price",
}: RankedTableProps) {
  const { selectedRow, scroller } = useSelectedRowInView(selectedId);
  if (items.length === 0 && unpricedRows.length === 0) {
    return <p className="text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p>;
  }
  const row: RowContext = { selectedId, selectedRow, onSelect, now, hasDistance };
  return (
    // relative: the screen-reader-only texts inside (absolutely positioned) are placed and clipped within the list;
    // without it they sat at their rows' positions far below, and the page grew an empty scroll space under the map.
    <div ref={scroller} className="relative max-h-[32rem] overflow-y-auto">
      {items.length === 0 ? <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p> : null}
      <table className="w-full text-left text-sm" data-testid="ranked-list">
        <caption className="sr-only">
          Cheapest stations{hasDistance ? " within the radius" : ""} by{" "}
          {priceLabel === "Price" ? "price" : `${priceLabel} price`}, cheapest first
          {unpricedRows.length > 0 ? `, then the checked stations without that price` : ""}. Select a station to show it
          on the map.
        </caption>
        <RankedHead priceLabel={priceLabel} hasDistance={hasDistance} />
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {items.map((item, index) => (
            <RankedRow key={item.station.id} item={item} rank={index + 1} context={row} />
          ))}
        </tbody>
        {unpricedRows.length === 0 ? null : (
          <UnpricedRows rows={unpricedRows} label={unpricedLabel} heading={unpricedHeading} context={row} />
        )}
      </table>
    </div>
  );
}

function RankedHead({ priceLabel, hasDistance }: { priceLabel: string; hasDistance: boolean }) {
  return (
    <thead className="sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400">
      <tr>
        <th scope="col" className="py-1 pr-2 font-medium">
          #
        </th>
        <th scope="col" className="py-1 pr-2 font-medium">
          Station
        </th>
        <th scope="col" className="py-1 pr-2 text-right font-medium">
          {priceLabel}
        </th>
        {hasDistance ? (
          <th scope="col" className="py-1 text-right font-medium">
            Distance
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

function RankedRow({
  item,
  rank,
  context: { selectedId, selectedRow, onSelect, now, hasDistance },
}: {
  item: NearbyRanking["items"][number];
  rank: number;
  context: RowContext;
}) {
  const s = item.station;
  const isSelected = s.id === selectedId;
  const stale = isStale(item.priceUpdatedAt, now);
  return (
    <tr
      ref={isSelected ? selectedRow : undefined}
      data-testid="ranked-row"
      data-station-id={s.id}
      className={isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}
    >
      <td className="py-2 pr-2 align-top tabular-nums text-slate-700 dark:text-slate-300">{rank}</td>
      <StationCell station={s} isSelected={isSelected} onSelect={onSelect} />
      <td className="py-2 pr-2 text-right align-top">
        <span className="block font-medium tabular-nums text-slate-900 dark:text-slate-100" data-testid="ranked-price">
          {formatUnitPrice(item.priceText)}
        </span>
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {describeDifference(item.diffFromAverage)}
        </span>
        <span
          className={`block text-xs ${stale ? "font-medium text-red-800 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}`}
        >
          {item.priceUpdatedAt === null ? "never updated" : `updated ${describeAge(item.priceUpdatedAt, now)}`}
          {stale ? " (stale)" : ""}
        </span>
      </td>
      {hasDistance ? (
        <td
          className="py-2 text-right align-top tabular-nums text-slate-900 dark:text-slate-100"
          data-testid="ranked-distance"
        >
          {item.distanceMiles === null ? "—" : `${item.distanceMiles.toFixed(1)} mi`}
        </td>
      ) : null}
    </tr>
  );
}

function UnpricedRows({
  rows,
  label,
  heading,
  context: { selectedId, selectedRow, onSelect, hasDistance },
}: {
  rows: readonly StationWithin[];
  label: string;
  heading: string;
  context: RowContext;
}) {
  return (
    <tbody className="divide-y divide-slate-200 border-t-2 border-slate-300 dark:divide-slate-800 dark:border-slate-600">
      <tr>
        <th
          scope="rowgroup"
          colSpan={hasDistance ? 4 : 3}
          className="pt-3 pb-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400"
        >
          {heading} ({formatCount(rows.length)})
        </th>
      </tr>
      {rows.map(({ station: s, distanceMiles }) => {
        const isSelected = s.id === selectedId;
        return (
          <tr
            key={s.id}
            ref={isSelected ? selectedRow : undefined}
            data-testid="unpriced-row"
            data-station-id={s.id}
            className={isSelected ? "bg-brand-50 dark:bg-slate-800" : ""}
          >
            <td className="py-2 pr-2 align-top text-slate-700 dark:text-slate-300">
              <span aria-hidden="true">–</span>
              <span className="sr-only">not ranked</span>
            </td>
            <StationCell station={s} isSelected={isSelected} onSelect={onSelect} />
            <td
              className="py-2 pr-2 text-right align-top font-medium text-slate-900 dark:text-slate-100"
              data-testid="unpriced-label"
            >
              {label}
            </td>
            {hasDistance ? (
              <td className="py-2 text-right align-top tabular-nums text-slate-900 dark:text-slate-100">{`${distanceMiles.toFixed(1)} mi`}</td>
            ) : null}
          </tr>
        );
      })}
    </tbody>
  );
}

function StationCell({
  station: s,
  isSelected,
  onSelect,
}: {
  station: Station;
  isSelected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <th scope="row" className="py-2 pr-2 align-top font-normal">
      <button
        type="button"
        aria-pressed={isSelected}
        className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-slate-50"
        onClick={() => {
          onSelect(s.id);
        }}
      >
        {s.name}
      </button>
      <span className="block text-xs text-slate-600 dark:text-slate-400">
        {brandName(s.brand)} · {s.city}, {s.state} ·{" "}
        <Link href={`/stations/${encodeURIComponent(s.id)}`} className="underline underline-offset-2">
          Details<span className="sr-only"> of {s.name}</span>
        </Link>
      </span>
    </th>
  );
}
