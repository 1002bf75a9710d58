import "server-only";

import fc from "fast-check";
import { expect } from "vitest";

import { periodTotals } from "@/lib/mirror";
import { addDays, daysIn, type Transaction } from "@/lib/model";

import { runWithQuery } from "../http/operation";
import { now } from "../platform/clock";
import { getAccount } from "../session/get-account";
import { mismatchesOf, type Pair } from "./figures";
import { drilldownPairs, jurisdictionPairs } from "./pairs-insights";
import { jurisdictionFilePairs } from "./pairs-jurisdiction-files";
import { filePairs, utcPairs } from "./pairs-list";
import { type Knobs, NO_KNOBS, type TieOutCase, type TieOutFilter, type TieOutStack } from "./sources";

/** The zones the list is read in: UTC, and zones west of it by 5, 8 and 10 hours (days that cross UTC midnight). */
const ZONES = ["UTC", "America/New_York", "America/Los_Angeles", "Pacific/Honolulu"] as const;

/** The seed of the tie-out's random cases: fixed, so a failure repeats (`TIE_OUT_SEED` tries another). */
const TIE_OUT_SEED = Number(process.env.TIE_OUT_SEED ?? "20250025");
/** Cases per profile × store: each costs ~25 operations over a real mirror. */
export const TIE_OUT_RUNS = Number(process.env.TIE_OUT_RUNS ?? "16");

const utcDateOf = (t: Transaction) => new Date(Date.parse(t.at)).toISOString().slice(0, 10);

/**
 * Random questions over the fleet's history: a period around one of its purchases (one day, up to 45 days, up to 430 days, or one
 * crossing the end of that purchase's month) or the last days up to today (the overview's and the reports' default
 * shape), a zone, and no filter, a status, or one of that purchase's driver, card, truck, station, station state or
 * product (so the filter finds rows).
 */
function caseArbitrary(all: readonly Transaction[]): fc.Arbitrary<TieOutCase> {
  return fc
    .record({
      index: fc.nat({ max: all.length - 1 }),
      shape: fc.oneof(
        fc.record({ kind: fc.constant("day" as const) }),
        fc.record({ kind: fc.constant("span" as const), before: fc.nat({ max: 30 }), after: fc.nat({ max: 15 }) }),
        fc.record({ kind: fc.constant("month-end" as const), before: fc.nat({ max: 4 }), after: fc.nat({ max: 4 }) }),
        fc.record({ kind: fc.constant("recent" as const), before: fc.nat({ max: 40 }) }),
        // Past 62 days the trends go by week, and the rollups' whole periods (1, 4, 16, 128 UTC days) come into play.
        fc.record({
          kind: fc.constant("long" as const),
          before: fc.integer({ min: 60, max: 400 }),
          after: fc.nat({ max: 30 }),
        }),
      ),
      tz: fc.constantFrom(...ZONES),
      filter: fc.constantFrom("none", "status", "driver", "card", "truck", "station", "state", "product"),
      status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    })
    .map(({ index, shape, tz, filter, status }) => {
      const t = all[index];
      if (t === undefined) throw new Error("no purchase at the index");
      const day = utcDateOf(t);
      let period = { from: day, to: day };
      if (shape.kind === "span" || shape.kind === "long")
        period = { from: addDays(day, -shape.before), to: addDays(day, shape.after) };
      if (shape.kind === "recent") {
        const today = new Date(now()).toISOString().slice(0, 10);
        period = { from: addDays(today, -shape.before), to: today };
      }
      if (shape.kind === "month-end") {
        const nextMonth = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 1));
        const first = nextMonth.toISOString().slice(0, 10);
        period = { from: addDays(first, -1 - shape.before), to: addDays(first, shape.after) };
      }
      const filters: Record<string, TieOutFilter> = {
        none: {},
        status: { status },
        driver: { driver: t.driver.id },
        card: { card: t.card.last4 },
        truck: t.driver.truckId === null ? {} : { truck: t.driver.truckId },
        station: { station: t.station.id },
        // A station without a state cannot be asked for (the filter takes a USPS code).
        state: /^[A-Z]{2}$/.test(t.station.state) ? { state: t.station.state } : {},
        product: { product: t.product },
      };
      return { ...period, tz, filter: filters[filter] ?? {} };
    });
}

/** Every pair of one case (see pairs-list.ts, pairs-insights.ts and pairs-jurisdiction-files.ts for which, and why they must agree). */
export async function tieOutPairs(stack: TieOutStack, c: TieOutCase, knobs: Knobs = NO_KNOBS): Promise<Pair[]> {
  return [
    ...(await utcPairs(stack, c, knobs)),
    ...(await filePairs(stack, c, knobs, "zone")),
    ...(await filePairs(stack, c, knobs, "local")),
    ...(await drilldownPairs(stack, c, knobs)),
    ...(await jurisdictionPairs(stack, c, knobs)),
    ...(await jurisdictionFilePairs(stack, c)),
  ];
}

/** The property: for every random case, no pair disagrees (the seed and the case are printed on failure). */
export async function assertTiesOut(stack: TieOutStack): Promise<void> {
  let compared = 0;
  await fc.assert(
    fc.asyncProperty(caseArbitrary(stack.all), async (c) => {
      const pairs = await tieOutPairs(stack, c);
      compared += pairs.length;
      expect(mismatchesOf(pairs), `case ${JSON.stringify(c)} (${String(daysIn(c))} days)`).toEqual([]);
    }),
    { seed: TIE_OUT_SEED, numRuns: TIE_OUT_RUNS, endOnFailure: true },
  );
  // A property that compares nothing proves nothing.
  expect(compared).toBeGreaterThan(TIE_OUT_RUNS * 20);
}

/**
 * The overview's 30-day totals (rolling 30 × 24 h up to now: the upstream's own, or computed by the BFF when the
 * upstream's shape has none) against the mirror's sum over the same instants: both count completed + pending.
 */
export async function rollingPairs(stack: TieOutStack): Promise<Pair[]> {
  const account = await runWithQuery(getAccount, stack.ctx(), {});
  const totals = account.totals30d;
  if (totals === null) throw new Error("the account has no 30-day totals");
  const at = now();
  const { store, customerId } = stack.mirror.access;
  const mirror = await periodTotals(store, customerId, { fromMs: at - 30 * 86_400_000, toMs: at + 1 });
  return [
    {
      why: "spend of the rolling 30 days",
      left: {
        source: `the overview's 30-day totals (${totals.source})`,
        figure: { count: totals.transactions, ...totals },
      },
      right: { source: "the local copy over the same instants", figure: { count: mirror.transactions, ...mirror } },
    },
  ];
}
