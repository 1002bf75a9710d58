"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";

import { DataTable, useListTable } from "@/components/ui/data-table";
import { describeAge } from "@/lib/format/dates";
import { formatCount, formatDecimal, formatUnitPrice } from "@/lib/format/numbers";
import type { Station } from "@/lib/model";

import { brandName } from "../shared/brand-name";
import { isStale } from "../shared/price-age";
import { describeDifference, type NearbyRanking, type StationWithin } from "../shared/ranking";

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

/** A row of the list: a ranked station (with its rank), or a checked station without a price for the product. */
type RankedListRow = RowShared &
  (
    | { group: "ranked"; rank: number; item: NearbyRanking["items"][number] }
    | { group: "unpriced"; within: StationWithin }
  );

/**
 * What the cells need besides their station, in the row: the columns stay the same objects while a station is
 * selected (flexRender takes a new cell function for a new component, which would remount the row's button and
 * lose its keyboard focus).
 */
interface RowShared {
  id: string;
  station: Station;
  isSelected: boolean;
  onSelect: (id: string) => void;
  now: number;
  unpricedLabel: string;
}

/**
 * A station chosen on the map: its row is scrolled into view inside the list only. (scrollIntoView would scroll the
 * page too, taking the map and its popup off screen.)
 */
function useSelectedRowInView(selectedId: string | null) {
  const selectedRow = useRef<HTMLElement>(null); // a <tr>, or on a phone the card's <li>
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
  const data = useMemo(
    () => listRows(items, unpricedRows, { selectedId, onSelect, now, unpricedLabel }),
    [items, unpricedRows, selectedId, onSelect, now, unpricedLabel],
  );
  const columns = useMemo(() => rankedColumns(priceLabel, hasDistance), [priceLabel, hasDistance]);
  const table = useListTable(data, columns);
  if (items.length === 0 && unpricedRows.length === 0) {
    return <p className="text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p>;
  }
  const caption =
    `Cheapest stations${hasDistance ? " within the radius" : ""} by ` +
    `${priceLabel === "Price" ? "price" : `${priceLabel} price`}, cheapest first` +
    `${unpricedRows.length > 0 ? ", then the checked stations without that price" : ""}. ` +
    "Select a station to show it on the map.";
  return (
    // relative: the screen-reader-only texts inside (absolutely positioned) are placed and clipped within the list;
    // without it they sat at their rows' positions far below, and the page grew an empty scroll space under the map.
    <div ref={scroller} className="relative max-h-[32rem] overflow-y-auto">
      {items.length === 0 ? <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{emptyMessage}</p> : null}
      <DataTable
        table={table}
        caption={caption}
        variant="compact"
        testId="ranked-list"
        rowRef={(row) => (row.id === selectedId ? selectedRow : undefined)}
        rowAttributes={(row) => ({
          "data-testid": row.original.group === "ranked" ? "ranked-row" : "unpriced-row",
          "data-station-id": row.id,
          className: row.id === selectedId ? "bg-brand-50 dark:bg-slate-800" : "",
        })}
        rowGroups={{
          groupOf: (row) => row.original.group,
          heading: (group, rows) => (group === "ranked" ? null : `${unpricedHeading} (${formatCount(rows.length)})`),
          className: (group) => (group === "ranked" ? undefined : "border-t-2 border-slate-300 dark:border-slate-600"),
        }}
      />
    </div>
  );
}

function listRows(
  items: NearbyRanking["items"],
  unpriced: readonly StationWithin[],
  context: { selectedId: string | null; onSelect: (id: string) => void; now: number; unpricedLabel: string },
): RankedListRow[] {
  const { selectedId, ...shared } = context;
  const base = (station: Station) => ({ ...shared, id: station.id, station, isSelected: station.id === selectedId });
  return [
    ...items.map((item, index) => ({ ...base(item.station), group: "ranked" as const, rank: index + 1, item })),
    ...unpriced.map((within) => ({ ...base(within.station), group: "unpriced" as const, within })),
  ];
}

const column = createColumnHelper<RankedListRow>();

function rankedColumns(priceLabel: string, hasDistance: boolean) {
  const columns = [
    column.display({
      id: "rank",
      header: "#",
      // On a phone's card the list's order says the rank (DataTable's cards).
      meta: { cellClassName: "tabular-nums text-slate-700 dark:text-slate-300", card: false },
      cell: ({ row }) =>
        row.original.group === "ranked" ? (
          row.original.rank
        ) : (
          <>
            <span aria-hidden="true">–</span>
            <span className="sr-only">not ranked</span>
          </>
        ),
    }),
    column.display({
      id: "station",
      header: "Station",
      meta: { rowHeader: true, cellClassName: "font-normal", card: "title" },
      cell: ({ row }) => (
        <StationCell
          station={row.original.station}
          isSelected={row.original.isSelected}
          onSelect={row.original.onSelect}
        />
      ),
    }),
    column.display({
      id: "price",
      // A block: the header cell is text-left, the column's figures are right-aligned.
      header: () => <span className="block text-right">{priceLabel}</span>,
      meta: { cellClassName: "text-right", card: "primary", label: priceLabel },
      cell: ({ row }) =>
        row.original.group === "ranked" ? (
          <PriceCell item={row.original.item} now={row.original.now} />
        ) : (
          <span className="font-medium text-slate-900 dark:text-slate-100" data-testid="unpriced-label">
            {row.original.unpricedLabel}
          </span>
        ),
    }),
  ];
  if (!hasDistance) return columns;
  return [
    ...columns,
    column.display({
      id: "distance",
      header: "Distance",
      meta: { numeric: true, cellClassName: "text-slate-900 dark:text-slate-100", card: "primary" },
      cell: ({ row }) => {
        const miles =
          row.original.group === "ranked" ? row.original.item.distanceMiles : row.original.within.distanceMiles;
        const text = miles === null ? "—" : `${formatDecimal(miles, 1)} mi`;
        return row.original.group === "ranked" ? <span data-testid="ranked-distance">{text}</span> : text;
      },
    }),
  ];
}

function PriceCell({ item, now }: { item: NearbyRanking["items"][number]; now: number }) {
  const stale = isStale(item.priceUpdatedAt, now);
  return (
    <>
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
    </>
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
    <>
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
    </>
  );
}
