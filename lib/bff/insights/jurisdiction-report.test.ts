import { describe, expect, it } from "vitest";

import { localDateOf } from "@/lib/mirror";
import { addDecimals } from "@/lib/model/decimal-math";
import { classifyProduct } from "@/lib/model/product-classes";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { transactionTotals } from "../transactions/transaction-totals";
import { getJurisdictionReport } from "./jurisdiction-report";

// GET /api/reports/jurisdictions over a real mirror synced from the real sandbox (both profiles): the figures equal
// sums computed from the upstream's own list on local dates, and tie out with GET /api/transactions/totals for the
// same range (dates=local) and filters; bad parameters are 400s with a sentence; without a mirror, a 409.

describe.each(["primary", "alternative"] as const)("fuel by jurisdiction (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  const range = { from: "2026-04-01", to: "2026-06-30" };

  it("equals the sandbox's own completed purchases per state × fuel on their local dates", async () => {
    const reply = await runWithQuery(getJurisdictionReport, stack().mirrorCtx(), { quarter: "2026-Q2" });
    expect(reply.periods.current).toEqual(range);
    expect(reply.periods.previous).toEqual({ from: "2026-01-01", to: "2026-03-31" });
    const inRange = stack().all.filter((t) => {
      const day = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
      return day >= range.from && day <= range.to;
    });
    const completed = inRange.filter((t) => t.status === "completed");
    expect(completed.length).toBeGreaterThan(0);
    const expected = new Map<string, { n: number; gallons: string[]; amount: string[]; def: string[] }>();
    for (const t of completed) {
      const key = `${t.station.state} ${classifyProduct(t.product).productClass}`;
      const e = expected.get(key) ?? { n: 0, gallons: [], amount: [], def: [] };
      e.n++;
      e.gallons.push(t.gallons);
      e.amount.push(t.amount);
      if (t.def) e.def.push(t.def.gallons);
      expected.set(key, e);
    }
    // A state × fuel bought only in the previous period has its row too, with zeros now and its previous figures.
    const [bought, gone] = [
      reply.report.rows.filter((r) => r.purchases > 0),
      reply.report.rows.filter((r) => r.purchases === 0),
    ];
    expect(gone.every((r) => r.amount === "0.00" && r.previous !== null && r.previous.purchases > 0)).toBe(true);
    const got = new Map(bought.map((r) => [`${r.state} ${r.fuel}`, r]));
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, e] of expected) {
      expect(got.get(key)).toMatchObject({
        purchases: e.n,
        gallons: addDecimals(e.gallons, 3),
        amount: addDecimals(e.amount, 2),
        defGallons: addDecimals(e.def, 3),
      });
    }
    expect(reply.report.pending.purchases).toBe(inRange.filter((t) => t.status === "pending").length);
    expect(reply.report.failed.purchases).toBe(inRange.filter((t) => t.status === "failed").length);
    expect(reply.coverage.complete).toBe(true);
    expect(reply.previous?.totals.purchases).toBeGreaterThan(0);
  });

  it("ties out with the transactions list's totals for the same range, dates=local and filters", async () => {
    const ctx = stack().mirrorCtx();
    const reply = await runWithQuery(getJurisdictionReport, ctx, range);
    const all = await runWithQuery(transactionTotals, ctx, { ...range, dates: "local", status: "completed" });
    // Every completed purchase by its own gallons and amount (DEF bought alone included): the all-completed figures.
    expect(all).toMatchObject({
      transactions: reply.report.completed.purchases,
      gallons: reply.report.completed.gallons,
      amount: reply.report.completed.amount,
    });
    for (const row of reply.report.rows.slice(0, 4)) {
      const [product] = row.products;
      if (product === undefined || row.products.length > 1) continue;
      const one = await runWithQuery(transactionTotals, ctx, {
        ...range,
        dates: "local",
        state: row.state,
        product,
        status: "completed",
      });
      expect(one).toMatchObject({ transactions: row.purchases, gallons: row.gallons, amount: row.amount });
    }
  });

  it.each([
    [{ quarter: "2026-Q5" }, "quarter"],
    [{ from: "2026-05-10", to: "2026-05-01" }, "after"],
    [{ quarter: "2026-Q2", from: "2026-04-01" }, "quarter"],
    [{ colour: "red" }, "Unknown query parameter"],
  ])("answers %o with a 400 and a sentence", async (query, words) => {
    const error = await rejection(runWithQuery(getJurisdictionReport, stack().mirrorCtx(), query));
    expect(error.status).toBe(400);
    expect(error.message).toContain(words);
  });

  it("answers 409 with a sentence when the session has no mirror", async () => {
    const error = await rejection(runWithQuery(getJurisdictionReport, stack().upstreamCtx(), range));
    expect(error.status).toBe(409);
    expect(error.message.length).toBeGreaterThan(20);
  });
});
