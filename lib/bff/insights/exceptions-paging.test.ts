import { describe, expect, it } from "vitest";

import { EXCEPTION_HITS_PER_PAGE, type ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { exceptionsOperation } from "./exceptions";

// Issue 25 item 4: every hit is reachable a page at a time (no cap: before, "the newest 500 of 699"), and the hits
// can be grouped by driver or card with each group's count. The night-or-weekend rule is turned on here (it is off by
// default) so a quarter of the sandbox fleet has a few hundred hits: several pages. This file's module state (the
// thresholds, read once per process) is its own: vitest runs each file in its own process.
process.env.EXCEPTIONS_OFF_HOURS = "true";

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const to = dateOf(TEST_ANCHOR.getTime());
const from = dateOf(TEST_ANCHOR.getTime() - 91 * DAY_MS);
const hitKey = (h: ExceptionsReply["hits"][number]) => `${h.rule}:${h.transactionIds.join(",")}`;

describe.each(["primary", "alternative"] as const)(
  "GET /api/exceptions paging and grouping (%s profile)",
  (profile) => {
    const stack = mirrorServeStackFor(profile);
    const run = (q: Record<string, string>): Promise<ExceptionsReply> =>
      runWithQuery(exceptionsOperation, stack().mirrorCtx(), { from, to, ...q });

    async function everyPage(q: Record<string, string>): Promise<ExceptionsReply[]> {
      const first = await run(q);
      const rest = await Promise.all(
        Array.from({ length: first.pages - 1 }, (_, i) => run({ ...q, page: String(i + 2) })),
      );
      return [first, ...rest];
    }

    it("pages through every hit, newest first, each once; the night-or-weekend rule runs when turned on", async () => {
      const pages = await everyPage({});
      const first = pages[0];
      expect(first?.rules.find((r) => r.id === "off-hours")).toMatchObject({ status: "run", reason: null });
      expect(first?.hitsTotal).toBeGreaterThan(2 * EXCEPTION_HITS_PER_PAGE);
      expect(first).toMatchObject({ page: 1, pageSize: EXCEPTION_HITS_PER_PAGE, group: null, groups: [] });
      expect(first?.pages).toBe(Math.ceil((first?.hitsTotal ?? 0) / EXCEPTION_HITS_PER_PAGE));
      const hits = pages.flatMap((p) => p.hits);
      expect(hits).toHaveLength(first?.hitsTotal ?? -1);
      expect(new Set(hits.map(hitKey)).size).toBe(hits.length);
      const instants = hits.map((h) => Date.parse(h.at));
      expect(instants).toEqual([...instants].sort((a, b) => b - a));
      expect(pages.map((p) => p.hits.length).slice(0, -1)).toEqual(pages.slice(1).map(() => EXCEPTION_HITS_PER_PAGE));
      // Every hit keeps its sentence with the numbers that triggered it.
      for (const h of hits) expect(h.sentence).toMatch(/\d/);
    });

    it.each(["driver", "card"] as const)(
      "groups every hit by %s, with each group's count, biggest first",
      async (group) => {
        const pages = await everyPage({ group });
        const reply = pages[0];
        if (reply === undefined) throw new Error("no first page");
        expect(reply.group).toBe(group);
        expect(reply.groups.length).toBeGreaterThan(1);
        expect(reply.groups.reduce((n, g) => n + g.count, 0)).toBe(reply.hitsTotal);
        const counts = reply.groups.map((g) => g.count);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
        const keyOf = (h: ExceptionsReply["hits"][number]) => (group === "driver" ? h.driver.id : h.card);
        const hits = pages.flatMap((p) => p.hits);
        // Group by group, in the groups' order, and as many hits in each as its count says.
        const runs: { key: string; n: number }[] = [];
        for (const h of hits) {
          const last = runs[runs.length - 1];
          if (last?.key === keyOf(h)) last.n++;
          else runs.push({ key: keyOf(h), n: 1 });
        }
        expect(runs).toEqual(reply.groups.map((g) => ({ key: g.key, n: g.count })));
        const label = reply.groups[0]?.label ?? "";
        expect(label).toMatch(group === "driver" ? /^\S+ \S+/ : /^card •••• \d{4}$/);
      },
    );

    it("answers a bad page or grouping with a 400 that says what to send", async () => {
      const past = await rejection(run({ page: "999" }));
      expect(past).toMatchObject({ code: "bad_request" });
      expect(past.message).toMatch(
        /^The page \(page\) 999 is past the last one: \d+ hits make \d+ pages of 50\. Ask for page 1 to \d+\.$/,
      );
      for (const page of ["0", "-1", "two", "1.5"]) {
        const bad = await rejection(run({ page }));
        expect(bad.message, page).toContain(`The page (page) must be a whole number from 1; “${page}” is not one`);
      }
      const group = await rejection(run({ group: "truck" }));
      expect(group).toMatchObject({ code: "bad_request" });
      expect(group.message).toContain(
        "The grouping (group) must be one of driver, card, or left out for none; “truck” is not one",
      );
    });

    it("keeps page 1 valid when nothing is found", async () => {
      const reply = await run({ from: "2020-01-01", to: "2020-01-31", page: "1" });
      expect(reply).toMatchObject({ hitsTotal: 0, hits: [], page: 1, pages: 1 });
    });
  },
);
