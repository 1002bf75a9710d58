"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useMemo, useState } from "react";

import { Button } from "@/components/ui/button";
import { DataTable, useListTable } from "@/components/ui/data-table";
import { formatCount } from "@/lib/format/numbers";
import type { RankedCandidate } from "@/lib/route";

import { brandName } from "../shared/brand-name";
import { routeMoney, routeTenths, routeUnitPrice } from "./route-format";
import { CAPTION } from "./route-table-styles";

/** Rows shown before "Show all": enough to compare, short enough to scroll past to the plan. */
export const RANKED_ROWS_SHOWN = 15;

/** A row: its candidate, with what its cells need (the columns stay the same objects, so a row's button keeps focus). */
interface RouteRow {
  id: string;
  rank: number;
  candidate: RankedCandidate;
  isSelected: boolean;
  onSelect: (id: string) => void;
}

/**
 * The corridor's stations ranked by effective price per gallon: the price, the detour in miles and dollars, the
 * effective price and the verdict as a sentence (never colour alone). Selecting a row shows the station on the map.
 * On a phone each station is a card: its name, the effective price and the verdict first (DataTable's cards).
 */
export function RouteRankedTable({
  ranked,
  productLabel,
  selectedId,
  onSelect,
}: {
  ranked: readonly RankedCandidate[];
  productLabel: string;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const data = useMemo(
    () =>
      (showAll ? ranked : ranked.slice(0, RANKED_ROWS_SHOWN)).map((candidate, index) => ({
        id: candidate.station.id,
        rank: index + 1,
        candidate,
        isSelected: candidate.station.id === selectedId,
        onSelect,
      })),
    [ranked, showAll, selectedId, onSelect],
  );
  const table = useListTable<RouteRow>(data, ROUTE_COLUMNS);
  if (ranked.length === 0) return null;
  return (
    <div className="space-y-2">
      <DataTable
        table={table}
        variant="plain"
        wrapperClassName="overflow-x-auto"
        testId="route-ranked"
        captionClassName={CAPTION}
        caption={
          `Corridor stations by effective ${productLabel.toLowerCase()} price: the price plus the detour's fuel and ` +
          "driver time, per gallon of a full tank bought there; each verdict says the gallons it is about (the " +
          "plan's at its stops)"
        }
        rowAttributes={(row) => ({
          "data-testid": "route-row",
          "data-station-id": row.id,
          className: row.original.isSelected ? "bg-brand-50 dark:bg-slate-800" : undefined,
        })}
      />
      {ranked.length > RANKED_ROWS_SHOWN ? (
        <Button
          variant="secondary"
          className="px-3 py-1 print:hidden"
          aria-expanded={showAll}
          onClick={() => {
            setShowAll(!showAll);
          }}
        >
          {showAll ? `Show the first ${String(RANKED_ROWS_SHOWN)}` : `Show all ${formatCount(ranked.length)}`}
        </Button>
      ) : null}
    </div>
  );
}

const column = createColumnHelper<RouteRow>();

const ROUTE_COLUMNS = [
  column.accessor("rank", { header: "#", meta: { numeric: true, card: false } }),
  column.display({
    id: "station",
    header: "Station",
    meta: { card: "title" },
    cell: ({ row }) => <StationCell row={row.original} />,
  }),
  column.display({
    id: "price",
    header: "Price",
    meta: { numeric: true, card: "secondary" },
    cell: ({ row }) => <span data-testid="route-price">{routeUnitPrice(row.original.candidate.price)}</span>,
  }),
  column.display({
    id: "detour",
    header: "Detour",
    meta: { numeric: true, card: "secondary" },
    cell: ({ row }) => (
      <>
        <span className="block" data-testid="route-detour-miles">
          {routeTenths(row.original.candidate.detourMiles)} mi
        </span>
        <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="route-detour-cost">
          {routeMoney(row.original.candidate.detourCost)}
        </span>
      </>
    ),
  }),
  column.display({
    id: "effective",
    header: "Effective",
    meta: { numeric: true, card: "primary", cellClassName: "font-medium" },
    cell: ({ row }) => (
      <span className="font-medium" data-testid="route-effective">
        {routeUnitPrice(row.original.candidate.effectivePrice)}
      </span>
    ),
  }),
  column.display({
    id: "verdict",
    header: "Verdict",
    meta: { card: "primary", cardClassName: "col-span-2" },
    // lib/route's sentence, which says so too when the station is out of reach.
    cell: ({ row }) => <span data-testid="route-verdict">{row.original.candidate.verdictText}</span>,
  }),
];

function StationCell({ row: { candidate: c, isSelected, onSelect } }: { row: RouteRow }) {
  return (
    <>
      <button
        type="button"
        aria-pressed={isSelected}
        className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-slate-50"
        onClick={() => {
          onSelect(c.station.id);
        }}
      >
        {c.station.name}
      </button>
      <span className="block text-xs text-slate-600 dark:text-slate-400">
        {brandName(c.station.brand)} · {c.station.city}, {c.station.state} · mile {routeTenths(c.alongMiles)},{" "}
        {routeTenths(c.offMiles)} mi off the path
      </span>
    </>
  );
}
