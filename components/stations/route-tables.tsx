"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import type { FillPlan, FillStop, RankedCandidate } from "@/lib/route";

import { brandName } from "./brand-name";
import { NO_DEF_PLAN, planCoverageText, routeMoney, routeTenths, routeUnitPrice } from "./route-format";

/** Rows shown before "Show all": enough to compare, short enough to scroll past to the plan. */
export const RANKED_ROWS_SHOWN = 15;

const TABLE = "w-full border-collapse text-left text-sm";
const CAPTION = "mb-2 text-left text-sm font-medium text-slate-900 dark:text-slate-100";
const TH =
  "border-b border-slate-300 px-2 py-1.5 text-xs font-semibold text-slate-700 dark:border-slate-600 dark:text-slate-300";
const TD = "border-b border-slate-200 px-2 py-1.5 align-top dark:border-slate-800";
const NUM = "text-right tabular-nums";

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
            driver time, per gallon bought there
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

/**
 * The fill plan's stops as a table with the map's numbers, and totals; an infeasible plan says why. Over checked
 * prices (unleaded) it says how many of the corridor's stations it covers so far; DEF has no plan (null).
 */
export function RoutePlanTable({
  plan,
  coverage,
  onSelect,
}: {
  plan: FillPlan | null;
  coverage: { checked: number; total: number } | null;
  onSelect: (id: string) => void;
}) {
  if (plan === null)
    return (
      <p data-testid="route-plan-def" className="text-sm text-slate-700 dark:text-slate-300">
        {NO_DEF_PLAN}
      </p>
    );
  const partial = planCoverageText(coverage);
  const over = partial === null ? "" : ` (${partial})`;
  if (!plan.feasible)
    return (
      <p
        role="status"
        data-testid="route-plan-infeasible"
        className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-50"
      >
        No fill plan keeps the truck above its reserve: {plan.reason ?? "no station is within reach"}
        {over}
      </p>
    );
  if (plan.stops.length === 0)
    return (
      <p data-testid="route-plan-none" className="text-sm text-slate-700 dark:text-slate-300">
        No stop needed: the truck reaches the end with {routeTenths(plan.endGallons)} gal, above its reserve{over}.
      </p>
    );
  const bought = plan.stops.reduce((sum, s) => sum + s.buyGallons, 0);
  return (
    <div className="overflow-x-auto">
      <table className={TABLE} data-testid="route-plan">
        <caption className={CAPTION}>
          Fill plan: {formatCount(plan.stops.length)} {plan.stops.length === 1 ? "stop" : "stops"}, numbered as on the
          map; the truck ends with {routeTenths(plan.endGallons)} gal{over}
        </caption>
        <PlanHead />
        <tbody>
          {plan.stops.map((stop, index) => (
            <PlanRow key={stop.candidate.station.id} stop={stop} index={index} onSelect={onSelect} />
          ))}
        </tbody>
        <tfoot>
          <tr className="font-semibold" data-testid="route-plan-totals">
            <th scope="row" colSpan={4} className={`${TD} text-left`}>
              Total ({routeMoney(plan.totalCost)} with detours)
            </th>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-gallons">
              {routeTenths(bought)}
            </td>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-fuel-cost">
              {routeMoney(plan.fuelCost)}
            </td>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-detour-cost">
              {routeMoney(plan.detourCost)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function PlanHead() {
  return (
    <thead>
      <tr>
        <th scope="col" className={TH}>
          Stop
        </th>
        <th scope="col" className={TH}>
          Where
        </th>
        <th scope="col" className={`${TH} ${NUM}`}>
          Mile
        </th>
        <th scope="col" className={`${TH} ${NUM}`}>
          Arrive with (gal)
        </th>
        <th scope="col" className={`${TH} ${NUM}`}>
          Buy (gal)
        </th>
        <th scope="col" className={`${TH} ${NUM}`}>
          Cost
        </th>
        <th scope="col" className={`${TH} ${NUM}`}>
          {/* Time only: the detour's fuel is in the gallons bought (the ranking's "Detour" adds fuel and time). */}
          Detour time ($)
        </th>
      </tr>
    </thead>
  );
}

function PlanRow({ stop, index, onSelect }: { stop: FillStop; index: number; onSelect: (id: string) => void }) {
  return (
    <tr data-testid="route-plan-row" data-station-id={stop.candidate.station.id}>
      <td className={`${TD} ${NUM}`}>{index + 1}</td>
      <td className={TD}>
        <button
          type="button"
          className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-slate-50"
          onClick={() => {
            onSelect(stop.candidate.station.id);
          }}
        >
          {stop.candidate.station.name}
        </button>
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {stop.candidate.station.city}, {stop.candidate.station.state} · {routeUnitPrice(stop.candidate.price)}
        </span>
      </td>
      <td className={`${TD} ${NUM}`}>{routeTenths(stop.candidate.alongMiles)}</td>
      <td className={`${TD} ${NUM}`}>{routeTenths(stop.arriveGallons)}</td>
      <td className={`${TD} ${NUM}`}>{routeTenths(stop.buyGallons)}</td>
      <td className={`${TD} ${NUM}`}>{routeMoney(stop.cost)}</td>
      <td className={`${TD} ${NUM}`}>{routeMoney(stop.detourCost)}</td>
    </tr>
  );
}
