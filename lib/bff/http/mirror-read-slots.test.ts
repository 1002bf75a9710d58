import { afterEach, describe, expect, it } from "vitest";

import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { exceptionsOperation } from "../insights/exceptions";
import { getJurisdictionReport } from "../insights/jurisdiction-report";
import { offThreadStats } from "../platform/off-thread/pool";
import { holdReads, readsWaiting } from "../platform/read-gate";
import { transactionTotals } from "../transactions/transaction-totals";
import { type OperationContext, runOperation, type SessionOperation } from "./operation";
import { parseQueryValues } from "./query";

// Issue 25 item 7 (a): every mirror-backed operation holds one of its session's slots (MIRROR_READS_PER_SESSION,
// default 3) while it runs, as its route runs it (runOperation). Reads are held at the test gate after taking their
// slot (lib/bff/platform/read-gate), so "three in flight" is a fact, not a timing; the fourth is refused at once. Real sandbox,
// real SQLite mirror, both profiles.

const to = TEST_ANCHOR.toISOString().slice(0, 10);
const from = new Date(TEST_ANCHOR.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
const range = { from, to };

/** Lets queued promise callbacks and I/O run until `done` holds (order, not time). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

/** Runs a query operation as its route does (runOperation: the slot, the gate), with raw query values. */
function run<I, R, P>(op: SessionOperation<I, R, P>, ctx: OperationContext, raw: Record<string, string>): Promise<R> {
  if (!("query" in op.input)) throw new Error(`${op.route} takes no query`);
  return runOperation(op, ctx, parseQueryValues(raw, op.input.query));
}

const exceptionsOf = (ctx: OperationContext) => run(exceptionsOperation, ctx, range);

describe.each(["primary", "alternative"] as const)("mirror-read slots per session (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  afterEach(() => {
    holdReads(false);
  });

  it("refuses a fourth mirror read of one session with a 429, Retry-After and a sentence; other sessions go on", async () => {
    const ctx = stack().mirrorCtx();
    holdReads(true);
    const running = [exceptionsOf(ctx), run(getJurisdictionReport, ctx, range), run(transactionTotals, ctx, range)];
    await until(() => readsWaiting() === 3);
    const refused = await rejection(exceptionsOf(ctx));
    expect(refused.code).toBe("too_many_running");
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ "Retry-After": "10" });
    expect(refused.message).toBe(
      "You already have 3 reports loading (in this or another tab). Wait for them to finish, then try again.",
    );
    // Another session of the same key is not refused: it waits at the gate like the others.
    const other = exceptionsOf(stack().mirrorCtx());
    await until(() => readsWaiting() === 4);
    holdReads(false);
    const answers = await Promise.all([...running, other]);
    expect(answers).toHaveLength(4);
    // Its slots are free again: the session reads again.
    expect((await exceptionsOf(ctx)).rules.length).toBeGreaterThan(0);
  });

  it("frees a slot when its read fails (a bad page is a 400), and judges the exceptions in a worker thread", async () => {
    const ctx = stack().mirrorCtx();
    for (let i = 0; i < 4; i++) {
      const bad = await rejection(run(exceptionsOperation, ctx, { ...range, page: "999" }));
      expect(bad.status).toBe(400);
    }
    const judged = () => offThreadStats().doneByTask["exceptions.judge"] ?? 0;
    const before = judged();
    await exceptionsOf(ctx);
    // The current period and the previous one: two judgements, each answered by a worker (counted per task: the
    // background savings loop shares the pool).
    expect(judged()).toBe(before + 2);
  });
});
