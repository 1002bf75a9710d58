import { beforeAll, describe, expect, it } from "vitest";

import type { Transaction, TransactionListReply } from "@/lib/model";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";
import type { SandboxProcess } from "@/test/sandbox-process";

import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { listTransactions } from "./list-transactions";
import type { TestMirror } from "./test-mirror";

// GET /api/transactions served from a real mirror (a real MirrorSync over the real sandbox, SQLite) against the same
// operation served by the upstream, in both profiles: the same rows, row for row, and the mirror-only filters.

const ids = (reply: TransactionListReply) => reply.items.map((t) => t.id);

describe.each(["primary", "alternative"] as const)("the list from the mirror (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let sb: SandboxProcess;
  let mirror: TestMirror;
  let all: Transaction[];
  beforeAll(() => {
    ({ sb, mirror, all } = stack());
  });
  const fromMirror = (q: Record<string, string>) => runWithQuery(listTransactions, stack().mirrorCtx(), q);
  const fromUpstream = (q: Record<string, string>) => runWithQuery(listTransactions, stack().upstreamCtx(), q);

  const sample = () => {
    const t = all[Math.floor(all.length / 3)];
    if (t === undefined) throw new Error("the sandbox has no transactions");
    return t;
  };

  it.each([
    ["no filter, page 1", {}],
    ["a status over a zone's days", { status: "pending", from: "2026-04-01", to: "2026-05-15", tz: "America/Chicago" }],
    [
      "days in a zone east of UTC, page 3 of 7 rows",
      { from: "2026-05-01", to: "2026-05-31", tz: "Asia/Tokyo", page: "3", limit: "7" },
    ],
    ["UTC days with failed rows", { from: "2026-03-01", to: "2026-06-30", status: "failed", limit: "200" }],
    ["a search by driver name", { search: "SEARCH_DRIVER", limit: "200" }],
    ["a search by card last four", { search: "SEARCH_CARD", limit: "200" }],
    ["a search by reference", { search: "SEARCH_REFERENCE" }],
    ["a search by a reference that no row has", { search: "FF9999999999" }],
    ["a search by part of a reference (the upstream's search does not match references)", { search: "SEARCH_PART" }],
  ])("answers %s with the upstream's rows, row for row", async (_name, template) => {
    const t = sample();
    const words: Record<string, string> = {
      SEARCH_DRIVER: t.driver.name.split(" ")[0]?.toLowerCase() ?? "",
      SEARCH_CARD: t.card.last4,
      SEARCH_REFERENCE: t.reference.toLowerCase(),
      SEARCH_PART: t.reference.slice(0, -3),
    };
    const q = Object.fromEntries(Object.entries(template).map(([k, v]) => [k, words[v] ?? v]));
    const [local, upstream] = await Promise.all([fromMirror(q), fromUpstream(q)]);
    expect(local.origin).toEqual({
      source: "mirror",
      asOf: new Date(mirror.access.state.lastHeadSyncMs ?? 0).toISOString(),
      note: null,
    });
    expect(upstream.origin).toEqual({ source: "upstream", asOf: null, note: null });
    expect({ total: local.total, pages: local.pages, page: local.page }).toEqual({
      total: upstream.total,
      pages: upstream.pages,
      page: upstream.page,
    });
    expect(ids(local)).toEqual(ids(upstream));
    expect(local.items).toEqual(upstream.items);
    expect(local.dateFilter).toEqual(upstream.dateFilter);
    if (q.search === words.SEARCH_REFERENCE) expect(local.items.map((x) => x.id)).toEqual([t.id]);
  });

  it("filters by driver, card, truck, station, state, product, amount and gallons, each as the rows say", async () => {
    const t = sample();
    const cases: [Record<string, string>, (x: Transaction) => boolean][] = [
      [{ driver: t.driver.id }, (x) => x.driver.id === t.driver.id],
      [{ card: t.card.last4 }, (x) => x.card.last4 === t.card.last4],
      [{ truck: t.driver.truckId ?? "none" }, (x) => x.driver.truckId === t.driver.truckId],
      [{ station: t.station.id }, (x) => x.station.id === t.station.id],
      [{ state: t.station.state.toLowerCase() }, (x) => x.station.state === t.station.state],
      [{ product: t.product.toUpperCase() }, (x) => x.product === t.product],
      [{ amountMin: "50", amountMax: "120.5" }, (x) => Number(x.amount) >= 50 && Number(x.amount) <= 120.5],
      [{ gallonsMin: "20.25" }, (x) => Number(x.gallons) >= 20.25],
      [{ gallonsMax: "15", status: "completed" }, (x) => Number(x.gallons) <= 15 && x.status === "completed"],
    ];
    for (const [q, keep] of cases) {
      const reply = await fromMirror({ ...q, limit: "200" });
      const expected = all.filter(keep);
      expect(expected.length, JSON.stringify(q)).toBeGreaterThan(0);
      expect(reply.total, JSON.stringify(q)).toBe(expected.length);
      expect(reply.items.every(keep), JSON.stringify(q)).toBe(true);
    }
  });

  it("sorts by any column, either way", async () => {
    const byAmount = await fromMirror({ sort: "amount", dir: "asc", limit: "200" });
    const amounts = byAmount.items.map((x) => Number(x.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(amounts[0]).toBe(Math.min(...all.map((x) => Number(x.amount))));
    const byDriver = await fromMirror({ sort: "driver", dir: "desc", limit: "50" });
    const names = byDriver.items.map((x) => x.driver.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const oldest = await fromMirror({ sort: "at", dir: "asc", limit: "1" });
    expect(oldest.items[0]?.at).toBe(all.map((x) => x.at).sort()[0]);
  });

  it("refuses bad values of the new parameters with sentences naming each", async () => {
    const error = await rejection(
      fromMirror({
        card: "12",
        state: "ZZ",
        amountMin: "abc",
        sort: "color",
        dir: "up",
        gallonsMin: "9",
        gallonsMax: "3",
      }),
    );
    expect(error.status).toBe(400);
    for (const part of [
      "The card (card) must be its last four digits, e.g. 4821; “12” is not",
      "The state (state) must be a USPS two-letter code, e.g. TX; “ZZ” is not",
      "The lowest amount (amountMin) must be a number such as 12.5 with at most 2 decimals; “abc” is not",
      "The sort column (sort) must be one of at, amount,",
      "The sort direction (dir) must be asc or desc; “up” is not",
    ])
      expect(error.message).toContain(part);
    // The range checks run once every value reads (zod refines a valid object only).
    const swapped = await rejection(
      fromMirror({ gallonsMin: "9", gallonsMax: "3", amountMin: "7.5", amountMax: "7.25" }),
    );
    expect(swapped.message).toContain(
      "The fewest gallons (gallonsMin, 9) is above the most (gallonsMax, 3); swap them",
    );
    expect(swapped.message).toContain("The lowest amount (amountMin, 7.5) is above the highest (amountMax, 7.25)");
    const driver = await rejection(fromMirror({ driver: "a b" }));
    expect(driver.message).toContain("The driver (driver) must be an id");
  });

  it("answers a mirror-only filter without a covering mirror with a 409 that says what is missing", async () => {
    const none = await rejection(fromUpstream({ driver: sample().driver.id, sort: "amount" }));
    expect(none.status).toBe(409);
    expect(none.code).toBe("mirror_needed");
    expect(none.message).toMatch(
      /^Filtering by driver and sorting by amount need the local copy of your transactions, which is not available for this session/,
    );
    expect(none.message).toMatch(/Remove those filters to see the Fleet Fuel API's rows\.$/);
    // A mirror still loading older history: the range it covers is served, an older one is not.
    const partial = {
      ...mirror.access,
      state: {
        ...mirror.access.state,
        coverageFromMs: Date.parse("2026-05-01T00:00:00Z"),
        backfill: { ...mirror.access.state.backfill, complete: false },
      },
    };
    const ctx = operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(partial) });
    const inside = await runWithQuery(listTransactions, ctx, { from: "2026-05-02", product: sample().product });
    expect(inside.origin.source).toBe("mirror");
    const older = await rejection(runWithQuery(listTransactions, ctx, { from: "2026-04-01", product: "diesel" }));
    expect(older.status).toBe(409);
    expect(older.message).toContain(
      "Filtering by product needs the local copy of your transactions, which does not reach back to 2026-04-01 yet (it reaches back to 2026-05-01 so far). Try again once it has loaded, or remove that filter.",
    );
    // Without mirror-only filters the upstream answers, and says why.
    const upstream = await runWithQuery(listTransactions, ctx, { from: "2026-04-01", to: "2026-04-03" });
    expect(upstream.origin.source).toBe("upstream");
    expect(upstream.origin.note).toContain("does not reach back to 2026-04-01 yet");
    expect(mirror.freshRequests()).toBeGreaterThan(0);
  });
});
