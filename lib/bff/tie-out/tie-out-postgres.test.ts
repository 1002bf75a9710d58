import { describe, expect, it } from "vitest";

import { tieOutStackFor } from "@/test/tie-out-stack";

import { mismatchesOf } from "./figures";
import { assertTiesOut, rollingPairs, TIE_OUT_RUNS } from "./property";

// Issue 25 item 2, the tie-out on PostgreSQL (the same property as tie-out.test.ts over the other store): for random periods, zones and filters over the sandbox fleet (fast-check,
// fixed seed printed on failure), every figure that claims the same definition as another — the overview's summary
// and 30-day totals, the totals bar, the drill-down lists summed and their details, the jurisdiction report, the CSV
// and XLSX exports — agrees to the count, the thousandth of a gallon and the cent. Real parts only: the sandbox over
// HTTP on loopback, a mirror filled by a real sync. Which pairs are compared, and why: pairs-list.ts, pairs-insights.ts.

describe.each(["primary", "alternative"] as const)("the tie-out on PostgreSQL (%s profile)", (profile) => {
  const stack = tieOutStackFor(profile, "postgresql");

  it(`agrees on every figure of ${String(TIE_OUT_RUNS)} random questions`, async () => {
    await assertTiesOut(stack());
  }, 300_000);

  it("agrees on the rolling 30 days", async () => {
    expect(mismatchesOf(await rollingPairs(stack()))).toEqual([]);
  });
});
