import { beforeAll, describe, expect, it } from "vitest";

import { localDateOf } from "@/lib/mirror";
import { addDecimals, type Transaction } from "@/lib/model";
import type { DrilldownDetailReply, DrilldownListReply } from "@/lib/model/insight-drilldowns";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import type { OperationContext } from "../http/operation";
import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { transactionTotals } from "../transactions/transaction-totals";
import { cardDetail, driverDetail, stationInsights, truckDetail } from "./drilldown-details";
import { listCards, listDrivers, listTrucks } from "./drilldown-lists";

// The drill-down routes' operations served from a real mirror (a real MirrorSync over the real sandbox, SQLite, both
// profiles): figures equal sums of the upstream's own rows by local date; a driver's amount ties out with the list's
// totals for driver=…&dates=local; 400 for bad keys and ranges, 404 for unknown keys, 409 without a mirror.

const MAY = { from: "2026-05-01", to: "2026-05-31" };
const APRIL = { from: "2026-04-01", to: "2026-04-30" };

type Detail = typeof driverDetail;

/** Runs a detail operation as its route does: path parameters and the query string, both checked. */
async function runDetail(
  op: Detail,
  ctx: OperationContext,
  params: Record<string, string>,
  query: Record<string, string>,
) {
  if (!("params" in op.input)) throw new Error("a detail route reads its path");
  const input = op.input.params(params, new URLSearchParams(query));
  return await op.run(ctx, input);
}

const spendOn = (all: Transaction[], range: { from: string; to: string }, keep: (t: Transaction) => boolean) =>
  all.filter((t) => {
    const local = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
    return t.status !== "failed" && local >= range.from && local <= range.to && keep(t);
  });
const sumOf = (ts: Transaction[]) => ({
  purchases: ts.length,
  gallons: addDecimals(
    ts.map((t) => t.gallons),
    3,
  ),
  amount: addDecimals(
    ts.map((t) => t.amount),
    2,
  ),
});

describe.each(["primary", "alternative"] as const)("drill-down routes (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let all: Transaction[];
  beforeAll(() => {
    ({ all } = stack());
  });
  const ctx = () => stack().mirrorCtx();

  it("GET /api/drivers, /api/trucks, /api/cards rank every key with the sums of its rows by local date", async () => {
    const lists = [
      [listDrivers, (t: Transaction) => t.driver.id],
      [listTrucks, (t: Transaction) => t.driver.truckId],
      [listCards, (t: Transaction) => t.card.last4],
    ] as const;
    for (const [op, keyOf] of lists) {
      const reply: DrilldownListReply = await runWithQuery(op, ctx(), MAY);
      expect(reply.coverage).toMatchObject({ requested: MAY, covered: MAY, complete: true, note: null });
      expect(reply.periods).toEqual({ current: MAY, previous: { from: "2026-03-31", to: "2026-04-30" } });
      const rows = spendOn(all, MAY, () => true);
      expect(rows.length).toBeGreaterThan(10);
      const keys = new Set(rows.map(keyOf).filter((k): k is string => k !== null));
      expect(new Set(reply.rows.map((r) => r.key))).toEqual(keys);
      for (const r of reply.rows)
        expect({ purchases: r.purchases, gallons: r.gallons, amount: r.amount }, `${op.route} ${r.key}`).toEqual(
          sumOf(rows.filter((t) => keyOf(t) === r.key)),
        );
      expect({ purchases: reply.totals.purchases, amount: reply.totals.amount }).toEqual({
        purchases: rows.length,
        amount: sumOf(rows).amount,
      });
      // The period change: each row's previous figures are the same key's sums in the previous period.
      const first = reply.rows[0];
      if (!first) throw new Error("no rows");
      expect(first.previous?.amount).toBe(
        sumOf(spendOn(all, reply.periods.previous, (t) => keyOf(t) === first.key)).amount,
      );
      if (op === listTrucks)
        expect(reply.withoutKey?.purchases).toBe(rows.filter((t) => t.driver.truckId === null).length);
    }
  });

  it("a driver's spend on local dates ties out with the transactions list's totals for driver=…&dates=local", async () => {
    const list = await runWithQuery(listDrivers, ctx(), MAY);
    for (const row of list.rows.slice(0, 3)) {
      const totals = await runWithQuery(transactionTotals, ctx(), { ...MAY, driver: row.key, dates: "local" });
      expect(totals).toMatchObject({ state: "summed", amount: row.amount, gallons: row.gallons });
      if (totals.state === "summed") expect(totals.transactions - totals.failed).toBe(row.purchases);
    }
  });

  it("details a driver, a truck, a card and a station: totals, trend, breakdown and the previous period", async () => {
    const t = spendOn(all, MAY, (x) => x.driver.truckId !== null)[0];
    if (!t) throw new Error("no purchase in May");
    const cases = [
      [driverDetail, { id: t.driver.id }, (x: Transaction) => x.driver.id === t.driver.id, "station"],
      [
        truckDetail,
        { id: t.driver.truckId ?? "" },
        (x: Transaction) => x.driver.truckId === t.driver.truckId,
        "station",
      ],
      [cardDetail, { last4: t.card.last4 }, (x: Transaction) => x.card.last4 === t.card.last4, "station"],
      [stationInsights, { id: t.station.id }, (x: Transaction) => x.station.id === t.station.id, "driver"],
    ] as const;
    for (const [op, params, keep, by] of cases) {
      const reply: DrilldownDetailReply = await runDetail(op, ctx(), params, MAY);
      const rows = spendOn(all, MAY, keep);
      expect({ purchases: reply.totals.purchases, gallons: reply.totals.gallons, amount: reply.totals.amount }).toEqual(
        sumOf(rows),
      );
      expect(reply.trend.unit).toBe("day");
      expect(reply.trend.points).toHaveLength(31);
      expect(
        addDecimals(
          reply.trend.points.map((p) => p.amount),
          2,
        ),
      ).toBe(reply.totals.amount);
      expect(reply.breakdown.dimension).toBe(by);
      expect(
        addDecimals(
          reply.breakdown.rows.map((r) => r.amount),
          2,
        ),
      ).toBe(reply.totals.amount);
      expect(reply.previous?.amount).toBe(sumOf(spendOn(all, reply.periods.previous, keep)).amount);
    }
    // A quarter: the previous period is the quarter before, the trend per week.
    const q2 = await runDetail(driverDetail, ctx(), { id: t.driver.id }, { quarter: "2026-Q2" });
    expect(q2.periods).toEqual({
      current: { from: "2026-04-01", to: "2026-06-30" },
      previous: { from: "2026-01-01", to: "2026-03-31" },
    });
    expect(q2.trend.unit).toBe("week");
  });

  it("answers zeros for a known key without purchases in the range, 404 for an unknown one, 400 for bad input", async () => {
    const t = all[0];
    if (!t) throw new Error("no rows");
    const empty = await runDetail(driverDetail, ctx(), { id: t.driver.id }, { from: "2020-01-01", to: "2020-01-31" });
    expect(empty.totals).toMatchObject({ purchases: 0, amount: "0.00", gallons: "0.000" });
    expect(empty.name).toBe(t.driver.name);

    const unknown = await rejection(runDetail(driverDetail, ctx(), { id: "no-such-driver" }, APRIL));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toContain("No driver “no-such-driver” has any purchase");
    const unknownCard = await rejection(runDetail(cardDetail, ctx(), { last4: "0000" }, APRIL));
    expect(unknownCard.status).toBe(404);
    const unknownStation = await rejection(runDetail(stationInsights, ctx(), { id: "no-such-station" }, APRIL));
    expect(unknownStation.status).toBe(404);
    expect(unknownStation.message).toBe("Your fleet has no purchase at this station in your transactions.");

    const badCard = await rejection(runDetail(cardDetail, ctx(), { last4: "12a4" }, APRIL));
    expect(badCard.status).toBe(400);
    expect(badCard.message).toContain("must be four digits");
    const badId = await rejection(runDetail(stationInsights, ctx(), { id: "a b" }, APRIL));
    expect(badId.status).toBe(400);
    const badRange = await rejection(runWithQuery(listDrivers, ctx(), { from: "2026-05-31", to: "2026-05-01" }));
    expect(badRange.status).toBe(400);
    const badQuarter = await rejection(runWithQuery(listTrucks, ctx(), { quarter: "2026-Q5" }));
    expect(badQuarter.status).toBe(400);
    const unknownParam = await rejection(runWithQuery(listCards, ctx(), { driver: "x" }));
    expect(unknownParam.status).toBe(400);
  });

  it("answers zeros and the coverage sentence, not 404, for an unseen key while the history is still loading", async () => {
    // The real mirror, read with a state that says its backfill reaches back only to 2026-05-01 (as it does while it
    // loads): a state we cannot hold still in a real sync, so the test gives it.
    const { mirror } = stack();
    const loading = { ...mirror.access.state, coverageFromMs: Date.parse("2026-05-01T00:00:00Z") };
    loading.backfill = { ...loading.backfill, complete: false };
    const loadingCtx = () =>
      operationContextForTest(stack().sb.keys["demo-full"], {
        mirror: () => Promise.resolve({ ...mirror.access, state: loading }),
      });
    const april = await runDetail(driverDetail, loadingCtx(), { id: "no-such-driver" }, APRIL);
    expect(april.totals).toMatchObject({ purchases: 0, amount: "0.00" });
    expect(april.name).toBe("no-such-driver");
    expect(april.coverage.complete).toBe(false);
    expect(april.coverage.note).toContain("still loading");
    const station = await runDetail(stationInsights, loadingCtx(), { id: "no-such-station" }, APRIL);
    expect(station.totals.purchases).toBe(0);
    // The same key once the history is whole: 404 (the test above).
    const whole = await rejection(runDetail(driverDetail, ctx(), { id: "no-such-driver" }, APRIL));
    expect(whole.status).toBe(404);
  });

  it("says the mirror is needed (409 with a sentence) when the session has none", async () => {
    const error = await rejection(runWithQuery(listDrivers, stack().upstreamCtx(), MAY));
    expect(error.status).toBe(409);
    expect(error.message.length).toBeGreaterThan(20);
  });
});
