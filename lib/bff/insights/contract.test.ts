import { beforeAll, describe, expect, it } from "vitest";

import { localDateOf, type SyncState } from "@/lib/mirror";
import { addDecimals, type ListTotals, type Transaction } from "@/lib/model";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { listTransactions } from "../transactions/list-transactions";
import { transactionTotals } from "../transactions/transaction-totals";
import { insightPeriodsOf } from "./range";
import { coverageOf, insightMirror } from "./serving";

// The insights contract (issue 16): purchases counted on their own local date, the list's `dates=local` that lets a
// report's link list exactly the rows behind a figure, the period parameters, and what the mirror covers.

const localDate = (t: Transaction) => localDateOf(Date.parse(t.at), t.localOffsetMinutes);

describe.each(["primary", "alternative"] as const)("dates=local on the list and its totals (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let all: Transaction[];
  beforeAll(() => {
    ({ all } = stack());
  });
  /** A purchase whose local date is not its UTC date (primary profile); in the alternative (UTC times) any one. */
  const crossingOrMiddle = () => {
    const crossing = all.find((t) => localDate(t) !== t.at.slice(0, 10));
    if (profile === "primary" && crossing === undefined) throw new Error("no purchase crosses midnight in the sandbox");
    if (profile === "alternative") expect(crossing).toBeUndefined();
    const t = crossing ?? all[Math.floor(all.length / 2)];
    if (t === undefined) throw new Error("the sandbox has no transactions");
    return t;
  };
  const list = (q: Record<string, string>) => runWithQuery(listTransactions, stack().mirrorCtx(), q);

  it("lists exactly the purchases whose own local date is in the range, and totals them", async () => {
    // A day where some purchase's UTC date differs from its local date (the primary profile sends stations' offsets;
    // the alternative sends UTC, where both agree), so the rule is exercised.
    const from = localDate(crossingOrMiddle());
    const to = from;
    const expected = all.filter((t) => localDate(t) >= from && localDate(t) <= to && t.status !== "failed");
    const reply = await list({ from, to, dates: "local", status: "completed", limit: "200" });
    const completed = expected.filter((t) => t.status === "completed");
    expect(reply.items.map((t) => t.id).sort()).toEqual(completed.map((t) => t.id).sort());

    const totals: ListTotals = await runWithQuery(transactionTotals, stack().mirrorCtx(), {
      from,
      to,
      dates: "local",
    });
    expect(totals).toMatchObject({
      state: "summed",
      amount: addDecimals(
        expected.map((t) => t.amount),
        2,
      ),
    });
  });

  it("counts a purchase on its local date, not its UTC date", async () => {
    const crossing = crossingOrMiddle();
    const day = localDate(crossing);
    const byLocal = await list({ from: day, to: day, dates: "local", limit: "200" });
    const byUtc = await list({ from: day, to: day, limit: "200" });
    expect(byLocal.total).toBe(all.filter((t) => localDate(t) === day).length);
    expect(byLocal.items.map((t) => t.id)).toContain(crossing.id);
    if (profile === "primary") expect(byUtc.items.map((t) => t.id)).not.toContain(crossing.id);
    else expect(byUtc.items.map((t) => t.id).sort()).toEqual(byLocal.items.map((t) => t.id).sort());
  });

  it("refuses another date basis with a sentence, and asks for the mirror without one (409)", async () => {
    const bad = await rejection(list({ dates: "utc" }));
    expect(bad.code).toBe("bad_request");
    expect(bad.message).toMatch(/date basis \(dates\) can only be local.*“utc”/);
    const upstream = await rejection(runWithQuery(listTransactions, stack().upstreamCtx(), { dates: "local" }));
    expect(upstream.code).toBe("mirror_needed");
    expect(upstream.message).toMatch(/each purchase's local date/);
  });
});

describe("insightPeriodsOf", () => {
  const today = "2026-11-24";
  it("reads a quarter and compares it with the quarter before, across a year", () => {
    expect(insightPeriodsOf({ quarter: "2026-Q1" }, today)).toEqual({
      current: { from: "2026-01-01", to: "2026-03-31" },
      previous: { from: "2025-10-01", to: "2025-12-31" },
    });
  });
  it("reads a range and compares it with as many days just before", () => {
    expect(insightPeriodsOf({ from: "2026-03-01", to: "2026-03-31" }, today)).toEqual({
      current: { from: "2026-03-01", to: "2026-03-31" },
      previous: { from: "2026-01-29", to: "2026-02-28" },
    });
  });
  it("defaults to the last 30 days up to today, and an open end to today or 30 days", () => {
    expect(insightPeriodsOf({}, today).current).toEqual({ from: "2026-10-26", to: "2026-11-24" });
    expect(insightPeriodsOf({ from: "2026-11-01" }, today).current).toEqual({ from: "2026-11-01", to: today });
    expect(insightPeriodsOf({ to: "2026-01-30" }, today).current).toEqual({ from: "2026-01-01", to: "2026-01-30" });
  });
  it.each([
    [{ quarter: "2026-Q1", from: "2026-01-01" }, /either a quarter .* or a range/],
    [{ from: "2026-05-02", to: "2026-05-01" }, /after the end date .* swap them/],
    [{ from: "2010-01-01", to: "2026-01-01" }, /at most ten years/],
  ])("refuses %j with a sentence", (q, message) => {
    expect(() => insightPeriodsOf(q, today)).toThrow(message);
  });
});

describe("coverageOf", () => {
  const state = (over: Partial<SyncState>): SyncState => ({
    customerId: "c",
    newestAtMs: null,
    coverageFromMs: null,
    backfill: { toDay: null, nextPage: null, expected: null, doneRows: 0, complete: false },
    lastHeadSyncMs: Date.parse("2026-11-24T12:00:00Z"),
    lastVerificationMs: null,
    lastVerification: null,
    lastError: null,
    ...over,
  });
  const range = { from: "2026-10-01", to: "2026-12-31" };

  it("covers the whole range once the history is complete", () => {
    const c = coverageOf(state({ backfill: { ...state({}).backfill, complete: true } }), range);
    expect(c).toMatchObject({ covered: range, complete: true, note: null, asOf: "2026-11-24T12:00:00.000Z" });
  });
  it("covers from the first local date whose every purchase is held, and says what is left out", () => {
    // Held from 2026-10-10 09:00 UTC: 10 October's purchases at +14 h began 9 October 10:00 UTC (not all held);
    // 11 October's earliest (10 October 09:00 UTC) is held.
    const c = coverageOf(state({ coverageFromMs: Date.parse("2026-10-10T09:00:00Z") }), range);
    expect(c.covered).toEqual({ from: "2026-10-11", to: "2026-12-31" });
    expect(c.complete).toBe(false);
    expect(c.note).toMatch(/reaches back to 2026-10-11 .* not the days from 2026-10-01/);
  });
  it("covers nothing before the first head sync, or when the range is older than the copy", () => {
    expect(coverageOf(state({ lastHeadSyncMs: null }), range)).toMatchObject({ covered: null, asOf: null });
    const older = coverageOf(state({ coverageFromMs: Date.parse("2027-01-05T00:00:00Z") }), range);
    expect(older).toMatchObject({ covered: null, complete: false });
    expect(older.note).toMatch(/nothing of 2026-10-01 to 2026-12-31/);
  });
  it("refuses with mirror_needed (409) when the session has no mirror", async () => {
    const ctx = operationContextForTest({ keyId: "ffk_test", secret: "s" });
    const error = await rejection(insightMirror(ctx, range));
    expect(error.code).toBe("mirror_needed");
    expect(error.message).toMatch(/transactions scope/);
  });
});
