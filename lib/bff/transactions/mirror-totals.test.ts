import { beforeAll, describe, expect, it } from "vitest";

import { type ListTotals, type Transaction } from "@/lib/model";
import { addDecimals } from "@/lib/model/decimal-math";
import { mirrorServeStackFor } from "@/test/mirror-serve-stack";

import { BffError } from "../http/errors";
import { runWithQuery } from "../http/operation";
import { transactionTotals } from "./transaction-totals";

// GET /api/transactions/totals from a real mirror (a real MirrorSync over the real sandbox, SQLite) against the same
// operation answered by the upstream walk, and the mirror-only filters (which only the mirror answers), both profiles.

describe.each(["primary", "alternative"] as const)("list totals from the mirror (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let all: Transaction[];
  beforeAll(() => {
    ({ all } = stack());
  });
  const mirrorCtx = () => stack().mirrorCtx();
  const upstreamCtx = () => stack().upstreamCtx();

  it.each<Record<string, string>>([
    { from: "2026-05-01", to: "2026-05-31" },
    { from: "2026-05-01", to: "2026-05-31", tz: "America/Chicago", status: "pending" },
    { from: "2026-04-10", to: "2026-04-20", status: "failed" },
  ])("answers what the upstream walk answers: %o", async (query) => {
    const [local, upstream] = await Promise.all([
      runWithQuery(transactionTotals, mirrorCtx(), query),
      runWithQuery(transactionTotals, upstreamCtx(), query),
    ]);
    expect(upstream.state).toBe("summed");
    expect(local).toEqual(upstream);
  });

  it("sums a driver's rows (a filter the upstream lacks) as the full list holds them", async () => {
    const driverId = all[0]?.driver.id;
    if (driverId === undefined) throw new Error("the sandbox's newest row has no driver");
    const rows = all.filter((t) => t.driver.id === driverId);
    const spend = rows.filter((t) => t.status !== "failed");
    const expected: ListTotals = {
      state: "summed",
      transactions: rows.length,
      failed: rows.length - spend.length,
      gallons: addDecimals(
        spend.map((t) => t.gallons),
        3,
      ),
      amount: addDecimals(
        spend.map((t) => t.amount),
        2,
      ),
    };
    expect(await runWithQuery(transactionTotals, mirrorCtx(), { driver: driverId, sort: "amount" })).toEqual(expected);
  });

  it("refuses a mirror-only filter with a 409 naming it when no mirror answers; a bad range is a 400", async () => {
    const refused = await runWithQuery(transactionTotals, upstreamCtx(), { state: "TX" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BffError);
    expect((refused as BffError).code).toBe("mirror_needed");
    expect((refused as BffError).message).toContain("Filtering by state needs the local copy");
    const bad = await runWithQuery(transactionTotals, mirrorCtx(), { amountMin: "20", amountMax: "10" }).catch(
      (e: unknown) => e,
    );
    expect((bad as BffError).code).toBe("bad_request");
  });
});
