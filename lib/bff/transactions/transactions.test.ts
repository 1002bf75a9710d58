import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isFleetApiError } from "@/lib/fleet-api";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { BffError, fromUpstream } from "../http/errors";
import { runWithQuery } from "../http/operation";
import { operationContextForTest, useUpstreamForTest } from "../http/test-context";
import { listTransactions } from "./list-transactions";
import { transactionSummary } from "./transaction-summary";
import { transactionTotals } from "./transaction-totals";

// The transactions operations called as plain functions (no Next): a context over the real sandbox, in both profiles.

const APRIL_MAY = { from: "2026-04-01", to: "2026-05-31" };

/** The sandbox's own count and sums of the demo customer's non-failed rows in April–May 2026 (UTC). */
function sandboxSums(sb: SandboxProcess): { n: number; g: number; a: number } {
  const db = new Database(sb.dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT COUNT(*) AS n, SUM(gallons_milli) AS g, SUM(amount_cents) AS a FROM transactions t JOIN customers c ON c.pk = t.customer_pk
         WHERE c.code = 'PFL' AND t.status != 'failed' AND t.at_utc BETWEEN ? AND ?`,
      )
      .get(Date.parse("2026-04-01T00:00:00Z") / 1000, Date.parse("2026-05-31T23:59:59Z") / 1000) as {
      n: number;
      g: number;
      a: number;
    };
  } finally {
    db.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe.each(["primary", "alternative"] as const)("transactions operations without Next (%s profile)", (profile) => {
  let sb: SandboxProcess;
  beforeAll(async () => {
    sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
  });
  afterAll(() => sb.stop());

  it("lists one page of the list, with the date filter it covers", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const reply = await runWithQuery(listTransactions, ctx, { ...APRIL_MAY, limit: "5", status: "completed" });
    expect(reply.items).toHaveLength(5);
    expect(reply.page).toBe(1);
    expect(reply.items.every((t) => t.status === "completed")).toBe(true);
    expect(reply.dateFilter).toEqual({
      timeZone: "UTC",
      from: "2026-04-01T00:00:00.000Z",
      to: "2026-05-31T23:59:59.999Z",
    });
  });

  it("refuses bad query values with sentences naming each parameter", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const error = await rejection(runWithQuery(listTransactions, ctx, { limit: "0", from: "2026-13-01", x: "1" }));
    expect(error).toBeInstanceOf(BffError);
    const bad = error as BffError;
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("limit must be at least 1");
    expect(bad.message).toContain("The start date (from) “2026-13-01” is not a day of the calendar");
    expect(bad.message).toContain("Unknown query parameter: x.");
  });

  it("passes an upstream refusal on as the FleetApiError the route maps to a 403 sentence", async () => {
    const ctx = operationContextForTest(sb.keys["demo-no-transactions"]);
    const error = await rejection(runWithQuery(listTransactions, ctx, {}));
    expect(isFleetApiError(error) && error.code).toBe("scope_denied");
    if (!isFleetApiError(error)) return;
    expect(fromUpstream(error).status).toBe(403);
  });

  it("totals and summary of a range equal the sandbox's own sums, exactly", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const row = sandboxSums(sb);
    const summary = await runWithQuery(transactionSummary, ctx, APRIL_MAY);
    expect(summary.totals.transactions).toBe(row.n);
    expect(summary.totals.gallons).toBe((row.g / 1000).toFixed(3));
    expect(summary.totals.amount).toBe((row.a / 100).toFixed(2));
    const totals = await runWithQuery(transactionTotals, ctx, APRIL_MAY);
    expect(totals.state === "summed" && [totals.transactions - totals.failed, totals.gallons, totals.amount]).toEqual([
      row.n,
      (row.g / 1000).toFixed(3),
      (row.a / 100).toFixed(2),
    ]);
  });

  it("totals a range exactly", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const totals = await runWithQuery(transactionTotals, ctx, APRIL_MAY);
    expect(totals.state).toBe("summed");
  });

  it("refuses a bad value with a sentence naming it", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    await expect(runWithQuery(transactionTotals, ctx, { status: "done" })).rejects.toThrow(/The status must be one of/);
  });

  it("passes on the upstream's refusal", async () => {
    const ctx = operationContextForTest(sb.keys["demo-no-transactions"]);
    await expect(runWithQuery(transactionTotals, ctx, {})).rejects.toMatchObject({ code: "scope_denied" });
  });

  it("bounds the summary's range by one rule, also when an end is left to its default", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    for (const query of [{ from: "2024-01-01", to: "2025-01-01" }, { from: "0001-01-01" }] as Record<
      string,
      string
    >[]) {
      const error = await rejection(runWithQuery(transactionSummary, ctx, query));
      expect(error).toBeInstanceOf(BffError);
      expect((error as BffError).status).toBe(400);
      expect((error as BffError).message).toContain("is longer than 366 days; ask for a shorter one (from, to).");
    }
  });
});
