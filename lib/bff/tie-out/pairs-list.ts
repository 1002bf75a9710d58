import "server-only";

import { runWithQuery } from "../http/operation";
import { transactionSummary } from "../transactions/transaction-summary";
import { type Figure, type Pair, sumFigures } from "./figures";
import {
  countOnly,
  exportSums,
  type Knobs,
  listQuery,
  spendOf,
  type TieOutCase,
  type TieOutFilter,
  type TieOutStack,
  totalsBar,
} from "./sources";

/**
 * The pairs of the list's definitions (tests only). Compared, and why they must agree:
 *
 * - **The overview's summary and the totals bar, on UTC days** (no zone, no filter): both count completed + pending
 *   purchases (failed is not spend) between the first millisecond of `from` and the last of `to`, UTC. So: the
 *   summary's totals = the bar's; the daily series and the products summed = the totals; each of the top drivers and
 *   the top station = the bar filtered by that driver or station (on purchase-local dates, `dates=local`, when the
 *   summary's `rankingMetric` says "spend.local-date": the rankings are /drivers' rows then); its previous period's totals = the bar over those days; its
 *   failed count = the bar's rows of status=failed.
 * - **The totals bar and the two files of the same filter** (the case's zone and filter): the bar counts every row
 *   and sums completed + pending; the CSV and the XLSX hold those rows, summed the same way.
 *
 * Not compared: the zoned bar with the summary (the summary takes UTC days only).
 */

const asFigure = (t: { transactions: number; gallons: string; amount: string }): Figure => ({
  count: t.transactions,
  gallons: t.gallons,
  amount: t.amount,
});

/** The case's filter as list parameters. */
const filterParams = (filter: TieOutFilter): Record<string, string> => ({ ...filter });

export async function utcPairs(stack: TieOutStack, c: TieOutCase, knobs: Knobs): Promise<Pair[]> {
  const summary = await runWithQuery(transactionSummary, stack.ctx(), { from: c.from, to: c.to });
  const bar = (rest: Record<string, string> = {}) => spendOf(stack, listQuery(c, knobs, rest));
  const pairs: Pair[] = [
    {
      why: "spend on UTC days",
      left: { source: "the overview's summary", figure: asFigure(summary.totals) },
      right: { source: "the totals bar", figure: await bar() },
    },
    {
      why: "spend on UTC days, day by day",
      left: { source: "the summary's daily series summed", figure: sumFigures(summary.daily.map(asFigure)) },
      right: { source: "the summary's totals", figure: asFigure(summary.totals) },
    },
    {
      why: "spend on UTC days, product by product",
      left: { source: "the summary's products summed", figure: sumFigures(summary.products.map(asFigure)) },
      right: { source: "the summary's totals", figure: asFigure(summary.totals) },
    },
    {
      why: "failed purchases on UTC days",
      left: { source: "the summary's count by status", figure: countOnly(summary.byStatus.failed ?? 0) },
      right: {
        source: "the totals bar's rows with status=failed",
        figure: countOnly((await totalsBar(stack, listQuery(c, knobs, { status: "failed" }))).all),
      },
    },
  ];
  // The rankings say their metric (lib/model/metrics): from the local copy, /drivers' purchase-local dates.
  const local = summary.rankingMetric === "spend.local-date";
  const basis: Record<string, string> = local ? { dates: "local" } : {};
  const words = local ? "purchase-local dates" : "UTC days";
  for (const d of summary.topDrivers.slice(0, 2))
    pairs.push({
      why: `driver ${d.id}'s spend on ${words}`,
      left: { source: "the overview's top drivers", figure: asFigure(d) },
      right: { source: "the totals bar filtered by the driver", figure: await bar({ driver: d.id, ...basis }) },
    });
  for (const s of summary.topStations.slice(0, 1))
    pairs.push({
      why: `station ${s.id}'s spend on ${words}`,
      left: { source: "the overview's top stations", figure: asFigure(s) },
      right: { source: "the totals bar filtered by the station", figure: await bar({ station: s.id, ...basis }) },
    });
  if (summary.previous !== null)
    pairs.push({
      why: "the previous period's spend on UTC days",
      left: { source: "the summary's previous period", figure: asFigure(summary.previous.totals) },
      right: {
        source: "the totals bar over those days",
        figure: await spendOf(stack, listQuery(summary.previous, knobs)),
      },
    });
  return pairs;
}

/** The totals bar against both files, on the case's zone and filter, or on purchase-local dates (`dates=local`). */
export async function filePairs(
  stack: TieOutStack,
  c: TieOutCase,
  knobs: Knobs,
  basis: "zone" | "local",
): Promise<Pair[]> {
  const rest = { ...filterParams(c.filter), ...(basis === "zone" ? { tz: c.tz } : { dates: "local" }) };
  const bar = await totalsBar(stack, listQuery(c, knobs, rest));
  // The files read the case's own period: the knob moves the bar only, so a shifted bar must fail these pairs.
  const files = await exportSums(stack, listQuery(c, { shiftListDays: 0 }, rest));
  const words = basis === "zone" ? `days of ${c.tz}` : "purchase-local dates";
  return (["csv", "xlsx"] as const).flatMap((format) => [
    {
      why: `spend of the filter ${JSON.stringify(rest)} on ${words}`,
      left: { source: "the totals bar", figure: bar.spend },
      right: { source: `the ${format.toUpperCase()} export summed`, figure: files[format].spend },
    },
    {
      why: `rows of the filter ${JSON.stringify(rest)} on ${words}`,
      left: { source: "the totals bar's count", figure: countOnly(bar.all) },
      right: { source: `the ${format.toUpperCase()} export's rows`, figure: countOnly(files[format].all) },
    },
  ]);
}
