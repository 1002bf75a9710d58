import { describe, expect, it } from "vitest";

import { localDateOf } from "@/lib/mirror";
import type { ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { mirrorServeStackFor } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { exceptionsOperation } from "./exceptions";

// Issue 25 item 4: with the default thresholds, each rule on its own flags a handful of the default sandbox fleet's
// purchases (at most 5 %), so a manager can act on the list; before, "night or weekend" flagged about half of them.

const DAY_MS = 86_400_000;
const MAX_SHARE = 0.05;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const to = dateOf(TEST_ANCHOR.getTime());
const PERIODS = [
  { days: 30, from: dateOf(TEST_ANCHOR.getTime() - 29 * DAY_MS), to },
  { days: 92, from: dateOf(TEST_ANCHOR.getTime() - 91 * DAY_MS), to },
];

describe.each(["primary", "alternative"] as const)("the default rules flag a handful (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);

  it.each(PERIODS)("each rule flags at most 5 % of the purchases of the last $days days", async ({ from, to }) => {
    const reply: ExceptionsReply = await runWithQuery(exceptionsOperation, stack().mirrorCtx(), { from, to });
    const purchases = stack().all.filter((t) => {
      const date = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
      return date >= from && date <= to;
    }).length;
    expect(purchases).toBeGreaterThan(100);
    const shares = Object.fromEntries(reply.rules.map((r) => [r.id, r.count / purchases]));
    for (const [id, share] of Object.entries(shares)) expect(share, id).toBeLessThanOrEqual(MAX_SHARE);
  });
});
