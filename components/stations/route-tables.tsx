"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import type { RankedCandidate } from "@/lib/route";

import { brandName } from "./brand-name";
import { routeMoney, routeTenths, routeUnitPrice } from "./route-format";

/** Rows shown before "Show all": enough to compare, short enough to scroll past to the plan. */
export const RANKED_ROWS_SHOWN = 15;

import { CAPTION, NUM, TABLE, TD, TH } from "./route-table-styles";

/**
 * The corridor's stations ranked by effective price per gallon: the price, the detour in miles and dollars, the
 * effective price and the verdict as a sentence (never colour alone). Selecting a row shows the station on the map.
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
  if (ranked.length === 0) return null;
  const rows = showAll ? ranked : ranked.slice(0, RANKED_ROWS_SHOWN);
  return (
    <div className="space-y-2">
      <div className="overflow-x-auto">
        <table className={TABLE} data-testid="route-ranked">
          <caption className={CAPTION}>
            Corridor stations by effective {productLabel.toLowerCase()} price: the price plus the detour&apos;s fuel and
            driver time, per gallon of a full tank bought there; each verdict says the gallons it is about (the
            plan&apos;s at its stops)
          </caption>
          <thead>
            <tr>
              <th scope="col" className={TH}>
                #
              </th>
              <th scope="col" className={TH}>
                Station
              </th>
              <th scope="col" className={`${TH} ${NUM}`}>
                Price
              </th>
              <th scope="col" className={`${TH} ${NUM}`}>
                Detour
              </th>
              <th scope="col" className={`${TH} ${NUM}`}>
                Effective
              </th>
              <th scope="col" className={TH}>
                Verdict
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c, index) => (
              <RankedRow
                key={c.station.id}
                rank={index + 1}
                candidate={c}
                isSelected={c.station.id === selectedId}
                onSelect={onSelect}
              />
            ))}
          </tbody>
        </table>
      </div>
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

function RankedRow({
  rank,
  candidate: c,
  isSelected,
  onSelect,
}: {
  rank: number;
  candidate: RankedCandidate;
  isSelected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <tr
      data-testid="route-row"
      data-station-id={c.station.id}
      className={isSelected ? "bg-brand-50 dark:bg-slate-800" : undefined}
    >
      <td className={`${TD} ${NUM}`}>{rank}</td>
      <td className={TD}>
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
      </td>
      <td className={`${TD} ${NUM}`} data-testid="route-price">
        {routeUnitPrice(c.price)}
      </td>
      <td className={`${TD} ${NUM}`}>
        <span className="block" data-testid="route-detour-miles">
          {routeTenths(c.detourMiles)} mi
        </span>
        <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="route-detour-cost">
          {routeMoney(c.detourCost)}
        </span>
      </td>
      <td className={`${TD} ${NUM} font-medium`} data-testid="route-effective">
        {routeUnitPrice(c.effectivePrice)}
      </td>
      <td className={TD} data-testid="route-verdict">
        {/* lib/route's sentence, which says so too when the station is out of reach. */}
        {c.verdictText}
      </td>
    </tr>
  );
}
