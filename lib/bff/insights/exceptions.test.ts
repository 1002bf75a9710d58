import { describe, expect, it } from "vitest";

import { EXCEPTION_RULE_IDS, type ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { exceptionsOperation } from "./exceptions";

// GET /api/exceptions over a real mirror of the sandbox's demo customer, whose seeded exception cases
// (sandbox/db/seed-exceptions.ts) lie in the 30 days up to the anchor: every rule finds at least one hit.

const OFF_BY_DEFAULT = ["off-hours"] as const;
const OFF_IDS = new Set<string>(OFF_BY_DEFAULT);

const to = TEST_ANCHOR.toISOString().slice(0, 10);
const from = new Date(TEST_ANCHOR.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);

describe.each(["primary", "alternative"] as const)("GET /api/exceptions (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  const run = (q: Record<string, string>): Promise<ExceptionsReply> =>
    runWithQuery(exceptionsOperation, stack().mirrorCtx(), q);

  it("finds every rule's seeded case for the demo customer, with a sentence and the transactions behind it", async () => {
    const reply = await run({ from, to });
    expect(reply.coverage).toMatchObject({ complete: true, covered: { from, to } });
    expect(reply.rules.map((r) => r.id)).toEqual([...EXCEPTION_RULE_IDS]);
    // One rule is off by default (issue 25 item 4): listed as not run, with why and who turns it on (fleet staff read
    // the page: no environment variable in it, issue 26).
    for (const id of OFF_BY_DEFAULT) {
      const rule = reply.rules.find((r) => r.id === id);
      expect(rule, id).toMatchObject({ status: "not_run", count: 0, previousCount: null });
      expect(rule?.reason, id).toMatch(/^Off by default: .* The dashboard's administrator can turn it on\.$/);
    }
    for (const rule of reply.rules.filter((r) => !OFF_IDS.has(r.id))) {
      expect(rule, rule.id).toMatchObject({ status: "run", reason: null });
      expect(rule.count, rule.id).toBeGreaterThanOrEqual(1);
      expect(rule.previousCount, rule.id).not.toBeNull();
    }
    const ids = new Set(stack().all.map((t) => t.id));
    for (const hit of reply.hits) {
      expect(hit.sentence.length).toBeGreaterThan(20);
      for (const id of hit.transactionIds) expect(ids.has(id)).toBe(true);
    }
    expect(reply.hitsTotal).toBe(reply.rules.reduce((n, r) => n + r.count, 0));
    const rapid = reply.hits.find((h) => h.rule === "rapid-fills" && !h.sentence.includes("truck T-900"));
    expect(rapid?.sentence ?? "").toMatch(/^\d+ fills on (card •••• \d{4}|truck \S+) within /);
    const seeded = reply.hits.filter((h) => h.sentence.includes("within 2 h 10 min, 412.0 gal in total"));
    expect(seeded).toHaveLength(1);
    expect(seeded[0]?.transactionIds).toHaveLength(3);
    expect(reply.thresholds.find((t) => t.env === "EXCEPTIONS_TRAVEL_MPH")).toEqual({
      env: "EXCEPTIONS_TRAVEL_MPH",
      label: "Impossible travel: faster than",
      value: "75 mph",
      defaultValue: "75 mph",
    });
  });

  it("narrows the hits to one rule (rule=) and keeps every rule's count", async () => {
    const reply = await run({ from, to, rule: "impossible-travel" });
    expect(reply.rule).toBe("impossible-travel");
    expect(reply.hits.length).toBeGreaterThan(0);
    expect(new Set(reply.hits.map((h) => h.rule))).toEqual(new Set(["impossible-travel"]));
    expect(reply.hitsTotal).toBe(reply.rules.find((r) => r.id === "impossible-travel")?.count);
    expect(reply.rules.every((r) => OFF_IDS.has(r.id) || r.count >= 1)).toBe(true);
  });

  it("judges the price against the station's customer price observed at the time, never today's (issue 25 item 3)", async () => {
    const reply = await run({ from, to, rule: "above-catalog-price" });
    const rule = reply.rules.find((r) => r.id === "above-catalog-price");
    expect(rule).toMatchObject({ status: "run", reason: null });
    // The seeded case, a day before the anchor at $0.45 over its station's price: the one hit.
    expect(reply.hits.map((h) => h.sentence)).toEqual([
      expect.stringMatching(
        /^Paid \$\d\.\d{3}\/gal for 118\.0 gal of diesel at .+, \$0\.450 above its customer price \$\d\.\d{3} observed (at the time|\d+ h( \d+ min)? from the purchase): \$53\.10 more\.$/,
      ),
    ]);
    // The older fills of the period have no price observed within 24 h (the walk saw prices stamped at most 10 days
    // before the anchor): not judged against today's price, and counted.
    expect(rule?.notJudged).toMatch(
      /^\d+ purchases were not judged: no price of their stations was observed within 24 h/,
    );
    expect(reply.catalogNote).toMatch(/never with today's price for an older fill/);
  });

  it("answers a bad rule, a bad range and a quarter with dates with a 400 that says what to send", async () => {
    const bad = await rejection(run({ from, to, rule: "speeding" }));
    expect(bad).toMatchObject({ code: "bad_request" });
    expect(bad.message).toContain("The rule (rule) must be one of rapid-fills, large-fill, off-hours");
    expect(bad.message).toContain("“speeding” is not one.");
    expect((await rejection(run({ from: to, to: from }))).message).toMatch(/is after the end date/);
    expect(await rejection(run({ quarter: "2026-Q2", from })).then((e) => e.message)).toMatch(/not both/);
    expect((await rejection(run({ quarter: "2026-Q5" }))).code).toBe("bad_request");
    expect((await rejection(run({ from, to, colour: "red" }))).code).toBe("bad_request");
  });

  it("lists the catalog rules as not run, with why, for a key without the locations scope (the others still run)", async () => {
    const created = JSON.parse(
      await stack().sb.cli("keys", "create", "--customer", "PFL", "--scopes", "account,transactions"),
    ) as { key_id: string; secret: string };
    const ctx = operationContextForTest(
      { keyId: created.key_id, secret: created.secret },
      { mirror: () => Promise.resolve(stack().mirror.access) },
    );
    const reply = await runWithQuery(exceptionsOperation, ctx, { from, to });
    const travel = reply.rules.find((r) => r.id === "impossible-travel");
    expect(travel).toMatchObject({ status: "not_run", count: 0, previousCount: null });
    expect(travel?.reason).toMatch(/lacks the locations scope/);
    expect(reply.rules.find((r) => r.id === "rapid-fills")).toMatchObject({ status: "run" });
    expect(reply.hits.some((h) => h.rule === "impossible-travel")).toBe(false);
  });

  it("claims no change while the previous period is partly loaded, and says so (review 6)", async () => {
    // The copy reaches back to the middle of the previous period (the 30 days before `from`).
    const access = stack().mirror.access;
    const partial = {
      ...access,
      state: {
        ...access.state,
        coverageFromMs: Date.parse(from) - 10 * 86_400_000,
        backfill: { ...access.state.backfill, complete: false },
      },
    };
    const ctx = operationContextForTest(stack().sb.keys["demo-full"], { mirror: () => Promise.resolve(partial) });
    const reply = await runWithQuery(exceptionsOperation, ctx, { from, to });
    expect(reply.coverage.complete).toBe(true);
    expect(reply.previousCoverage).toMatchObject({ complete: false });
    expect(reply.previousCoverage.note).toMatch(/reaches back to .* so far/);
    // The period's own counts stand (rules needing older history may judge fewer fills: their notJudged says so).
    expect(reply.rules.find((r) => r.id === "rapid-fills")?.count).toBeGreaterThanOrEqual(1);
    expect(reply.rules.map((r) => r.previousCount)).toEqual(reply.rules.map(() => null));
  });

  it("checks at most 92 days at once: a longer range is a 400 that names the cap; a quarter is fine", async () => {
    const long = await rejection(run({ from: "2026-01-01", to: "2026-04-03" }));
    expect(long).toMatchObject({ code: "bad_request" });
    expect(long.message).toBe(
      "The exceptions are checked over at most 92 days at a time (a quarter); 2026-01-01 to 2026-04-03 is 93 days. Choose a quarter or a shorter range.",
    );
    const quarter = await run({ quarter: "2026-Q3" });
    expect(quarter.periods.current).toEqual({ from: "2026-07-01", to: "2026-09-30" });
  });

  it("says the session needs the mirror (409) when it has none", async () => {
    const error = await rejection(runWithQuery(exceptionsOperation, stack().upstreamCtx(), { from, to }));
    expect(error.code).toBe("mirror_needed");
  });
});
