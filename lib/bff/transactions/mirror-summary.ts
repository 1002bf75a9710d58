import "server-only";

import { type RankedFigures, settlingOf } from "@/lib/mirror";
import type { DataOrigin, RankedItem, TransactionSummaryReply } from "@/lib/model";
import type { LocalDateRange } from "@/lib/model/insights";
import type { SpendComparison } from "@/lib/model/metrics";
import { daysInRange } from "@/lib/model/summary-range";
import { UTC_ZONE } from "@/lib/model/time-zones";

import { BffError } from "../http/errors";
import { utcDate } from "../platform/clock";
import type { MirrorAccess } from "../platform/mirror-access";
import { readOffThread } from "../platform/off-thread/pool";

const DAY_MS = 86_400_000;
const TOP = 5;

/** The overview's ranked lists from the drill-downs' figures, so its top drivers are /drivers' first rows. */
const topOf = (figures: RankedFigures): RankedItem[] =>
  figures.rows.slice(0, TOP).map((r) => ({
    id: r.key,
    name: r.name,
    detail: r.detail,
    transactions: r.purchases,
    gallons: r.gallons,
    amount: r.amount,
  }));

/**
 * The overview's rankings and its period change by the drill-downs' metric ("spend.local-date"): the same days and the
 * same definition as /drivers and the jurisdiction report, so the pages give one verdict for the same dates.
 */
async function byLocalDates(
  access: MirrorAccess,
  current: LocalDateRange,
  previous: LocalDateRange | null,
): Promise<{ drivers: RankedItem[]; stations: RankedItem[]; comparison: SpendComparison | null }> {
  const { store, customerId } = access;
  const [drivers, stations, before, settling] = await Promise.all([
    // The first five only (and the totals): the ranking's head, named, not every station of the fleet; the previous
    // period's totals alone.
    readOffThread(store, "drilldowns.ranked", [customerId, "driver", current, "rollups", TOP]),
    readOffThread(store, "drilldowns.ranked", [customerId, "station", current, "rollups", TOP]),
    previous === null
      ? Promise.resolve(null)
      : readOffThread(store, "drilldowns.ranked", [customerId, "driver", previous, "rollups", 0]),
    settlingOf(store, customerId, current),
  ]);
  const comparison: SpendComparison | null =
    previous === null || before === null
      ? null
      : {
          metric: "spend.local-date",
          current: { ...current, amount: drivers.totals.amount },
          previous: { ...previous, amount: before.totals.amount },
          settling,
        };
  return { drivers: topOf(drivers), stations: topOf(stations), comparison };
}

/**
 * The longest range the mirror summarizes, in days: ten years. The mirror answers any period a fleet has history for;
 * the bound only keeps the daily series (one entry per day) of a mistyped year such as 0202 from growing without end.
 */
const MAX_MIRROR_SUMMARY_DAYS = 3_660;

/**
 * The summary of UTC days [from, to] from the mirror (the upstream walk's rules: lib/mirror/summary), and the totals
 * of the period of equal length just before `from` when the mirror covers it too (else null). The top drivers and
 * stations and the period change are by each purchase's local date over the same dates (`byLocalDates`), the metric
 * of /drivers and the reports, so a driver ranks and totals the same on the overview, /drivers and her page.
 */
export async function mirrorSummary(
  access: MirrorAccess,
  origin: DataOrigin,
  range: { from: string; to: string },
): Promise<TransactionSummaryReply> {
  const { from, to } = range;
  if (daysInRange(from, to) > MAX_MIRROR_SUMMARY_DAYS)
    throw new BffError(
      "bad_request",
      `The range from ${from} to ${to} is longer than ${String(MAX_MIRROR_SUMMARY_DAYS)} days (ten years); ask for a shorter one (from, to).`,
    );
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to) + DAY_MS;
  const previousFromMs = fromMs - (toMs - fromMs);
  const { state } = access;
  const coversPrevious =
    state.backfill.complete || (state.coverageFromMs !== null && state.coverageFromMs <= previousFromMs);
  const previousDates = { from: utcDate(previousFromMs), to: utcDate(fromMs - DAY_MS) };
  const [summary, previousTotals, local] = await Promise.all([
    // Its own rankings are not read (byLocalDates ranks): top 0 spares their name lookups.
    readOffThread(access.store, "summary.summarize", [access.customerId, { fromMs, toMs, timeZone: UTC_ZONE, top: 0 }]),
    coversPrevious
      ? // The whole period's totals from the UTC rollups (a year is a few hundred rollup rows, not its purchases).
        readOffThread(access.store, "summary.spend-totals", [
          access.customerId,
          { fromMs: previousFromMs, toMs: fromMs },
        ])
      : Promise.resolve(null),
    byLocalDates(access, { from, to }, coversPrevious ? previousDates : null),
  ]);
  return {
    ...summary,
    from,
    to,
    topDrivers: local.drivers,
    topStations: local.stations,
    rankingMetric: "spend.local-date",
    comparison: local.comparison,
    previous: previousTotals === null ? null : { ...previousDates, totals: previousTotals },
    origin,
  };
}
