import "server-only";

import type { DrilldownDimension, DrilldownFigures, DrilldownListReply } from "@/lib/model/insight-drilldowns";

import { runWithQuery } from "../http/operation";
import { listCards, listDrivers, listTrucks } from "../insights/drilldown-lists";
import { drilldownDetail } from "../insights/drilldown-service";
import { getJurisdictionReport } from "../insights/jurisdiction-report";
import { type Figure, type Pair, sumFigures } from "./figures";
import { countOnly, type Knobs, listQuery, spendOf, type TieOutCase, type TieOutStack, totalsBar } from "./sources";

/**
 * The pairs of the insights' definitions (tests only): every insight counts a purchase on its own local date, and the
 * list takes the same basis with `dates=local` (its "view transactions" links). Compared, and why they must agree:
 *
 * - **Drill-down lists** (`/api/drivers`, `/api/trucks`, `/api/cards`): spend = completed + pending. Each list's
 *   totals = the totals bar on those local dates; its rows summed = its totals (trucks: with the purchases without
 *   a truck); its previous period's totals = the bar over the previous dates.
 * - **Drill-down details** (`/api/drivers/[id]`, and the card's, truck's or station's of the case's filter): the
 *   detail's totals = that key's row in the list = the bar filtered by the key; its trend summed and its breakdown
 *   (stations, or a station's drivers) summed = its totals.
 * - **The jurisdiction report**: completed only. Its `completed` = the bar with status=completed (the report's own
 *   link); its pending = the bar with status=pending; its failed count = the bar's rows with status=failed; a state's
 *   rows' purchases = the bar's completed purchases in that state (the rows' gallons leave DEF out, so only the count).
 *
 * Not compared: the rolling 30 days (another period) or UTC-day figures with these (another date basis).
 */

const asFigure = (f: Pick<DrilldownFigures, "purchases" | "gallons" | "amount">): Figure => ({
  count: f.purchases,
  gallons: f.gallons,
  amount: f.amount,
});

export async function drilldownPairs(stack: TieOutStack, c: TieOutCase, knobs: Knobs): Promise<Pair[]> {
  const range = { from: c.from, to: c.to };
  const local = (rest: Record<string, string> = {}) => spendOf(stack, listQuery(c, knobs, { dates: "local", ...rest }));
  const bar = await local();
  const pairs: Pair[] = [];
  const lists: [string, DrilldownListReply][] = [
    ["/api/drivers", await runWithQuery(listDrivers, stack.ctx(), range)],
    ["/api/trucks", await runWithQuery(listTrucks, stack.ctx(), range)],
    ["/api/cards", await runWithQuery(listCards, stack.ctx(), range)],
  ];
  for (const [route, list] of lists) {
    const rows = list.rows.map(asFigure);
    if (list.withoutKey !== null)
      rows.push({ count: list.withoutKey.purchases, gallons: null, amount: list.withoutKey.amount });
    pairs.push(
      {
        why: "spend on purchase-local dates",
        left: { source: `${route}'s totals`, figure: asFigure(list.totals) },
        right: { source: "the totals bar (dates=local)", figure: bar },
      },
      {
        why: "spend on purchase-local dates, key by key",
        left: { source: `${route}'s rows summed`, figure: { ...sumFigures(rows), gallons: null } },
        right: { source: `${route}'s totals`, figure: { ...asFigure(list.totals), gallons: null } },
      },
    );
  }
  const [, drivers] = lists[0] ?? [];
  if (drivers?.previousTotals)
    pairs.push({
      why: "the previous period's spend on purchase-local dates",
      left: { source: "/api/drivers' previous totals", figure: asFigure(drivers.previousTotals) },
      right: {
        source: "the totals bar over those dates (dates=local)",
        figure: await spendOf(stack, listQuery(drivers.periods.previous, knobs, { dates: "local" })),
      },
    });
  const subjects: [DrilldownDimension, string, string, DrilldownListReply | undefined][] = [];
  const f = c.filter;
  const topDriver = drivers?.rows[0]?.key;
  if ("driver" in f) subjects.push(["driver", f.driver, "driver", drivers]);
  else if (topDriver !== undefined) subjects.push(["driver", topDriver, "driver", drivers]);
  if ("card" in f) subjects.push(["card", f.card, "card", lists[2]?.[1]]);
  if ("truck" in f) subjects.push(["truck", f.truck, "truck", lists[1]?.[1]]);
  if ("station" in f) subjects.push(["station", f.station, "station", undefined]);
  for (const [dimension, key, param, list] of subjects)
    pairs.push(...(await detailPairs(stack, c, knobs, { dimension, key, param, list })));
  return pairs;
}

/** One key's page against the bar filtered by it, its own trend and breakdown, and its row in the list. */
async function detailPairs(
  stack: TieOutStack,
  c: TieOutCase,
  knobs: Knobs,
  subject: { dimension: DrilldownDimension; key: string; param: string; list: DrilldownListReply | undefined },
): Promise<Pair[]> {
  const { dimension, key, param, list } = subject;
  const detail = await drilldownDetail(stack.ctx(), dimension, { key, range: { from: c.from, to: c.to } });
  const row = list?.rows.find((r) => r.key === key);
  const keyBar = await spendOf(stack, listQuery(c, knobs, { dates: "local", [param]: key }));
  const pairs: Pair[] = [];
  pairs.push(
    {
      why: `${dimension} ${key}'s spend on purchase-local dates`,
      left: { source: `the ${dimension}'s page`, figure: asFigure(detail.totals) },
      right: { source: `the totals bar filtered by the ${dimension} (dates=local)`, figure: keyBar },
    },
    {
      why: `${dimension} ${key}'s spend on purchase-local dates, ${detail.breakdown.dimension} by ${detail.breakdown.dimension}`,
      left: {
        source: `the ${dimension}'s ${detail.breakdown.dimension}s summed`,
        figure: sumFigures(detail.breakdown.rows.map(asFigure)),
      },
      right: { source: `the ${dimension}'s page`, figure: asFigure(detail.totals) },
    },
    {
      why: `${dimension} ${key}'s spend on purchase-local dates, day by day`,
      left: {
        source: `the ${dimension}'s trend summed`,
        figure: { ...sumFigures(detail.trend.points.map(asFigure)) },
      },
      right: { source: `the ${dimension}'s page`, figure: asFigure(detail.totals) },
    },
  );
  // A station has no list route (its page is the station's): no row to hold it against.
  if (list !== undefined && (row !== undefined || detail.totals.purchases > 0))
    pairs.push({
      why: `${dimension} ${key}'s spend on purchase-local dates`,
      left: { source: `the ${dimension}s list's row`, figure: row === undefined ? countOnly(0) : asFigure(row) },
      right: { source: `the ${dimension}'s page`, figure: asFigure(detail.totals) },
    });
  if (list !== undefined && row?.previous && detail.previous)
    pairs.push({
      why: `${dimension} ${key}'s spend in the previous period on purchase-local dates`,
      left: { source: `the ${dimension}s list's row`, figure: asFigure(row.previous) },
      right: { source: `the ${dimension}'s page`, figure: asFigure(detail.previous) },
    });
  return pairs;
}

export async function jurisdictionPairs(stack: TieOutStack, c: TieOutCase, knobs: Knobs): Promise<Pair[]> {
  const { report } = await runWithQuery(getJurisdictionReport, stack.ctx(), { from: c.from, to: c.to });
  const local = (rest: Record<string, string>) => totalsBar(stack, listQuery(c, knobs, { dates: "local", ...rest }));
  const pairs: Pair[] = [
    {
      why: "completed purchases on purchase-local dates",
      left: { source: "the jurisdiction report's all completed purchases", figure: asFigure(report.completed) },
      right: {
        source: "the totals bar with status=completed (dates=local)",
        figure: (await local({ status: "completed" })).spend,
      },
    },
    {
      why: "pending purchases on purchase-local dates",
      left: { source: "the jurisdiction report's pending purchases", figure: asFigure(report.pending) },
      right: {
        source: "the totals bar with status=pending (dates=local)",
        figure: (await local({ status: "pending" })).spend,
      },
    },
    {
      why: "failed purchases on purchase-local dates",
      left: { source: "the jurisdiction report's failed purchases", figure: countOnly(report.failed.purchases) },
      right: {
        source: "the totals bar's rows with status=failed (dates=local)",
        figure: countOnly((await local({ status: "failed" })).all),
      },
    },
    {
      why: "completed purchases on purchase-local dates, row by row",
      left: {
        source: "the jurisdiction report's rows summed",
        figure: countOnly(report.rows.reduce((n, r) => n + r.purchases, 0)),
      },
      right: { source: "the jurisdiction report's totals", figure: countOnly(report.totals.purchases) },
    },
  ];
  if ("state" in c.filter) {
    const state = c.filter.state;
    pairs.push({
      why: `completed purchases in ${state} on purchase-local dates`,
      left: {
        source: `the jurisdiction report's ${state} rows`,
        figure: countOnly(report.rows.filter((r) => r.state === state).reduce((n, r) => n + r.purchases, 0)),
      },
      right: {
        source: `the totals bar with state=${state}, status=completed (dates=local)`,
        figure: countOnly((await local({ state, status: "completed" })).spend.count),
      },
    });
  }
  return pairs;
}
