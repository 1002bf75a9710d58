"use client";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";
import {
  type FillPlan,
  type FillStop,
  type PlanFixes,
  shownPlan,
  type ShownStop,
  type ViaSuggestion,
} from "@/lib/route";

import { NO_DEF_PLAN, planCoverageText, routeCents, routeTenths, routeUnitPrice } from "./route-format";
import { CAPTION, NUM, TABLE, TD, TH } from "./route-table-styles";
import { CORRIDOR_RANGE } from "./route-view-state";

/** What the page does with a suggestion of PlanFixes: widen the corridor, or add the via point. */
export interface PlanFixActions {
  onWiden: (corridorMiles: number) => void;
  onAddVia: (via: ViaSuggestion) => void;
}

/**
 * The fill plan's stops as a table with the map's numbers, and totals that add up as printed (lib/route's
 * shownPlan); an infeasible plan says why in miles and offers what would give one. Over checked prices (unleaded) it
 * says how many of the corridor's stations it covers so far; DEF has no plan (null).
 */
export function RoutePlanTable({
  plan,
  coverage,
  onSelect,
  fixes = null,
  actions = null,
}: {
  plan: FillPlan | null;
  coverage: { checked: number; total: number } | null;
  onSelect: (id: string) => void;
  fixes?: PlanFixes | null;
  actions?: PlanFixActions | null;
}) {
  if (plan === null)
    return (
      <p data-testid="route-plan-def" className="text-sm text-slate-700 dark:text-slate-300">
        {NO_DEF_PLAN}
      </p>
    );
  const partial = planCoverageText(coverage);
  const over = partial === null ? "" : ` (${partial})`;
  if (!plan.feasible) return <NoPlan plan={plan} over={over} fixes={fixes} actions={actions} />;
  if (plan.stops.length === 0)
    return (
      <p data-testid="route-plan-none" className="text-sm text-slate-700 dark:text-slate-300">
        No stop needed: the truck reaches the end with {routeTenths(plan.endGallons)} gal, above its reserve{over}.
      </p>
    );
  const shown = shownPlan(plan);
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
            <PlanRow
              key={stop.candidate.station.id}
              stop={stop}
              shown={shown.stops[index]}
              index={index}
              onSelect={onSelect}
            />
          ))}
        </tbody>
        <tfoot>
          <tr className="font-semibold" data-testid="route-plan-totals">
            <th scope="row" colSpan={4} className={`${TD} text-left`}>
              Total ({routeCents(shown.totalCents)} with detours)
            </th>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-gallons">
              {routeTenths(shown.gallonsTenths / 10)}
            </td>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-fuel-cost">
              {routeCents(shown.fuelCents)}
            </td>
            <td className={`${TD} ${NUM}`} data-testid="route-plan-detour-cost">
              {routeCents(shown.detourCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** Why there is no plan (lib/route's sentence, in miles), and the checked changes that would give one. */
function NoPlan({
  plan,
  over,
  fixes,
  actions,
}: {
  plan: FillPlan;
  over: string;
  fixes: PlanFixes | null;
  actions: PlanFixActions | null;
}) {
  const widen = fixes?.corridorMiles ?? null;
  const via = fixes?.via ?? null;
  return (
    <div
      role="status"
      data-testid="route-plan-infeasible"
      className="space-y-2 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-50"
    >
      <p data-testid="route-plan-reason">
        No fill plan keeps the truck above its reserve: {plan.reason ?? "no station is within reach"}
        {over}.
      </p>
      {fixes === null || actions === null ? null : widen === null && via === null ? (
        <p data-testid="route-plan-no-fix">
          Neither a corridor up to {CORRIDOR_RANGE.max} mi nor a via point through a station in the gap gives a plan:
          start with more fuel or keep a smaller reserve.
        </p>
      ) : (
        <div className="flex flex-wrap gap-2 print:hidden" data-testid="route-plan-fixes">
          {widen === null ? null : (
            <Button
              variant="secondary"
              className="px-3 py-1"
              onClick={() => {
                actions.onWiden(widen);
              }}
            >
              Widen the corridor to {widen} mi
            </Button>
          )}
          {via === null ? null : (
            <Button
              variant="secondary"
              className="px-3 py-1"
              onClick={() => {
                actions.onAddVia(via);
              }}
            >
              Go via {via.label} ({routeTenths(via.offMiles)} mi off the path)
            </Button>
          )}
        </div>
      )}
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

function PlanRow({
  stop,
  shown,
  index,
  onSelect,
}: {
  stop: FillStop;
  /** The row's figures as the totals sum them (shownPlan has one per stop). */
  shown: ShownStop | undefined;
  index: number;
  onSelect: (id: string) => void;
}) {
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
      <td className={`${TD} ${NUM}`} data-testid="route-plan-buy">
        {routeTenths((shown?.buyTenths ?? 0) / 10)}
      </td>
      <td className={`${TD} ${NUM}`} data-testid="route-plan-cost">
        {routeCents(shown?.costCents ?? 0)}
      </td>
      <td className={`${TD} ${NUM}`} data-testid="route-plan-stop-detour">
        {routeCents(shown?.detourCents ?? 0)}
      </td>
    </tr>
  );
}
