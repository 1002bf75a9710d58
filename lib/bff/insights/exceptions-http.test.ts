import { beforeAll, describe, expect, it } from "vitest";

import type { ExceptionsReply } from "@/lib/model/insight-exceptions";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { errorCodeOf, errorMessageOf, type TestBrowser } from "@/test/browser";
import { useMirrorAppStack } from "@/test/mirror-app-stack";

// GET /api/exceptions over real HTTP (issue 25 item 4): the built app with its mirror (SQLite) synced from the sandbox,
// both profiles. Every hit is reachable a page at a time (page=), grouped by driver or card on request (group=), and
// a bad page or grouping is a 400 with a sentence. The night-or-weekend rule (off by default) is turned on through the
// app's environment so a quarter has a few hundred hits: several pages.

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = `from=${dateOf(TEST_ANCHOR.getTime() - 91 * DAY_MS)}&to=${dateOf(TEST_ANCHOR.getTime())}`;

describe.each(["primary", "alternative"] as const)("GET /api/exceptions over HTTP (%s profile)", (profile) => {
  const stack = useMirrorAppStack(profile, { EXCEPTIONS_OFF_HOURS: "true" });
  let b: TestBrowser;
  beforeAll(() => {
    b = stack().browser;
  });

  const get = async (query: string) => {
    const res = await b.fetch(`/api/exceptions?${period}${query}`);
    return { status: res.status, body: res.body };
  };

  it("serves every hit a page at a time, and page 2 carries the next ones", async () => {
    const first = await get("");
    expect(first.status).toBe(200);
    const one = first.body as ExceptionsReply;
    expect(one.pages).toBeGreaterThan(1);
    expect(one.hits).toHaveLength(one.pageSize);
    const two = (await get("&page=2")).body as ExceptionsReply;
    expect(two.page).toBe(2);
    const seen = new Set(one.hits.map((h) => `${h.rule}:${h.transactionIds.join(",")}`));
    expect(two.hits.some((h) => seen.has(`${h.rule}:${h.transactionIds.join(",")}`))).toBe(false);
    const last = (await get(`&page=${String(one.pages)}`)).body as ExceptionsReply;
    expect((one.pages - 1) * one.pageSize + last.hits.length).toBe(one.hitsTotal);
  });

  it("groups by card with a count per group that sums to every hit", async () => {
    const res = await get("&group=card");
    expect(res.status).toBe(200);
    const reply = res.body as ExceptionsReply;
    expect(reply.group).toBe("card");
    expect(reply.groups.reduce((n, g) => n + g.count, 0)).toBe(reply.hitsTotal);
    expect(reply.hits[0]?.card).toBe(reply.groups[0]?.key);
  });

  it.each([
    ["&page=0", /^The page \(page\) must be a whole number from 1; “0” is not one/],
    [
      "&page=9999",
      /^The page \(page\) 9999 is past the last one: \d+ hits make \d+ pages of 50\. Ask for page 1 to \d+\.$/,
    ],
    ["&group=truck", /^The grouping \(group\) must be one of driver, card, or left out for none; “truck” is not one/],
  ])("answers %s with a 400 and a sentence", async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(errorCodeOf(res.body)).toBe("bad_request");
    expect(errorMessageOf(res.body)).toMatch(message);
  });
});
