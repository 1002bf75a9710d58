import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { reserveOf } from "@/lib/fleet-api/budget";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { stationIds } from "@/test/bff-stack";
import { TestBrowser } from "@/test/browser";
import { busiestWindow, ClusterStack, PROVIDER_BUDGET, PROVIDER_WINDOW_MS } from "@/test/cluster-stack";

// Issue 17, proven by running it: three built app instances (`next start`, each on its own port) share one
// redis-server and one PostgreSQL (the mirror), in front of the sandbox as a process with the provider's real budget
// of 60 requests per key per minute. Load goes to all three (sign-ins of several key pairs, pages' data routes, an
// export, the mirror's backfill, price checks); the sandbox's own log is the witness.
//
// One profile (primary; lib/bff/platform/pile-up.test.ts runs in the other): what is tested here is how the instances share one
// budget, one lock and one revocation list, the same whatever shape the upstream answers in; how each shape reaches
// the mirror is lib/mirror/mirror-sync.test.ts's (both profiles, both stores). Three built apps, Redis and PostgreSQL
// per profile were the suite's costliest file (issue 26: the suite stays fast). The history is made long enough
// (8 000 rows of the demo customer, 40 pages, each answered 300 ms late) that an instance can die in the middle of its
// backfill.

/**
 * How late this test may see a request in the sandbox's output beyond the time it took to answer (the output is read
 * every 10 ms; the pipe adds a little): the window check is shorter by this. The app itself keeps 250 ms more.
 */
const OBSERVATION_SLACK_MS = 150;

/** The demo customer's history: 40 pages, so a backfill is in progress when the instance running it dies. */
const HISTORY_ROWS = 8_000;

/**
 * The sandbox's token lifetime here (its default is an hour, longer than the whole test): short enough that the test
 * spans a few lifetimes, so "one POST /auth per key per token lifetime across the instances" is put to the test.
 */
const TOKEN_TTL_SECONDS = 25;

/**
 * Clicks on uncached pages during the sync's takeover fill the demo key's current minute up to the budget less this
 * many (requests in flight the sandbox has not logged yet), so none of them waits long for a slot.
 */
const IN_FLIGHT_ALLOWANCE = 3;
/** The sync's share of a minute (the budget less the reserve for people) nearly used: the moment to click. */
const SYNC_BUSY = 40;

describe.each(["primary"] as const)("three instances, one Redis, one PostgreSQL (%s profile)", (profile) => {
  const stack = new ClusterStack();
  /**
   * When the last request of a key pair other than demo-full was seen: later requests are all demo-full's (the
   * other pairs have no background work, and no test after the sign-ins uses them).
   */
  let othersDoneAt = 0;
  const browsers = new Map<string, TestBrowser>();
  const signedIn = async (instance: number, label: "demo-full" | "demo-no-transactions" | "extra", pair: Pair) => {
    const b = new TestBrowser(stack.apps[instance]?.origin ?? "");
    const res = await b.login(pair.keyId, pair.secret);
    expect(res.status).toBe(200);
    browsers.set(`${label}@${String(instance)}`, b);
    return b;
  };
  const syncStatus = async (b: TestBrowser) => {
    const res = await b.fetch("/api/sync");
    expect(res.status).toBe(200);
    return res.body as SyncStatusReply;
  };
  /** The demo key's requests the sandbox logged in the last minute. */
  const lastMinute = () => stack.seen.filter((s) => s.at > Date.now() - PROVIDER_WINDOW_MS).length;
  /**
   * Pages of the demo customer's transactions no test asked before (no cache holds them), over the live instances:
   * as many as the current minute has room for, so they fill it without waiting for a slot.
   */
  const openUncachedPages = () =>
    Promise.all(
      Array.from({ length: Math.max(1, PROVIDER_BUDGET - IN_FLIGHT_ALLOWANCE - lastMinute()) }, async (_, i) => {
        const b = browsers.get(`demo-full@${String(1 + (i % 3))}`) ?? expect.fail("no session");
        const page = 100 + i;
        return { page, status: (await b.fetch(`/api/transactions?page=${String(page)}&limit=10`)).status };
      }),
    );
  const authCalls = () => stack.seen.filter((s) => s.method === "POST" && s.path === "/api/v1/auth").length;
  const settle = () => new Promise((r) => setTimeout(r, 200)); // the last log lines reach the watcher

  beforeAll(async () => {
    // The long history also answers each request 300 ms late (sandbox --fault-latency): a backfill of 40 pages then
    // takes seconds even when the budget allows it, so the kill below always finds it running.
    await stack.start(profile, 3, [
      "--reset",
      "--transactions",
      String(HISTORY_ROWS),
      "--faults",
      "--fault-latency",
      "300",
      "--token-ttl-seconds",
      String(TOKEN_TTL_SECONDS),
    ]);
  }, 240_000);
  afterAll(() => stack.stop(), 60_000);

  it("signs several key pairs in on all three instances with one POST /auth per key", async () => {
    const extra = JSON.parse(
      await stack.upstream.cli("keys", "create", "--customer", "PFL", "--scopes", "account", "--label", "extra"),
    ) as { key_id: string; secret: string };
    const pairs = {
      // Key pairs without the transactions scope have no mirror and no background work: their requests end here.
      "demo-no-transactions": stack.upstream.keys["demo-no-transactions"],
      extra: { keyId: extra.key_id, secret: extra.secret },
      // The demo customer's key last: its sign-in on instance 0 starts the mirror's sync there.
      "demo-full": stack.upstream.keys["demo-full"],
    };
    for (const [label, pair] of Object.entries(pairs) as [keyof typeof pairs, Pair][]) {
      if (label === "demo-full") {
        await settle();
        othersDoneAt = Date.now();
      }
      const before = authCalls();
      await signedIn(0, label, pair);
      await Promise.all([signedIn(1, label, pair), signedIn(2, label, pair)]);
      await settle();
      expect({ label, auth: authCalls() - before }).toEqual({ label, auth: 1 });
    }
  }, 60_000);

  it("kills the instance that holds the customer's sync lock mid-backfill; the sync goes on elsewhere", async () => {
    const holder = browsers.get("demo-full@0");
    if (!holder) throw new Error("no session on instance 0");
    for (;;) {
      const status = await syncStatus(holder);
      expect(status.state).not.toBe("ready"); // the history is long enough that it cannot be done yet
      if (status.running && status.rows > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const redis = await stack.redisKeys("ffd:sync-lock:*");
    expect(redis).toHaveLength(1);
    stack.kill(stack.apps[0] ?? expect.fail("no instance 0"));
    // A fresh third instance takes the dead one's place behind the (imaginary) balancer.
    await stack.addInstance();
    await signedIn(3, "demo-full", stack.upstream.keys["demo-full"]);
  }, 60_000);

  it("spreads page loads, price checks and an export over the live instances: every one answered, none a 429", async () => {
    const live = [1, 2, 3]; // instance 0 was killed; 3 took its place
    const sessions = live.map(
      (i) => browsers.get(`demo-full@${String(i)}`) ?? expect.fail(`no session on ${String(i)}`),
    );
    const at = (i: number) => sessions[i % sessions.length] ?? expect.fail("no session");
    const ids = stationIds(stack.upstream, 12);
    const paths = [
      "/api/account",
      ...Array.from({ length: 6 }, (_, i) => `/api/transactions?page=${String(i + 1)}&limit=25`),
      "/api/locations?limit=50",
      `/api/locations?limit=50&page=2`,
      `/api/locations/prices?ids=${ids.slice(0, 6).join(",")}`,
      `/api/locations/prices?ids=${ids.slice(6).join(",")}`,
      "/api/transactions/export?format=csv&from=2026-06-01&to=2026-06-03",
      "/api/account",
    ];
    const replies = await Promise.all(
      paths.map(async (path, i) => ({ path, status: (await at(i).fetch(path)).status })),
    );
    for (const reply of replies) expect(reply).toEqual({ path: reply.path, status: 200 });
  }, 120_000);

  it("a sign-out on one instance refuses the cookie on the others", async () => {
    const live = [1, 2, 3]; // instance 0 was killed; 3 took its place
    const [first, ...others] = live;
    // A session of its own (the demo key's: every request from here on is the demo key's, see othersDoneAt).
    const b = new TestBrowser(stack.apps[first ?? 1]?.origin ?? "");
    const { keyId, secret } = stack.upstream.keys["demo-full"];
    expect((await b.login(keyId, secret)).status).toBe(200);
    const cookie = b.cookie;
    // One cookie is good on every instance (one session secret)...
    for (const i of others) {
      const same = new TestBrowser(stack.apps[i]?.origin ?? "");
      same.cookie = cookie;
      expect((await same.fetch("/api/account")).status).toBe(200);
    }
    // ...until it signs out on one of them.
    expect((await b.fetch("/api/session", { method: "DELETE" })).status).toBeLessThan(300);
    for (const i of others) {
      const same = new TestBrowser(stack.apps[i]?.origin ?? "");
      same.cookie = cookie;
      expect((await same.fetch("/api/account")).status).toBe(401);
    }
  }, 30_000);

  it("another instance takes the sync over once the lease has expired; the mirror equals the upstream, row for row", async () => {
    const b = browsers.get("demo-full@1") ?? expect.fail("no session on instance 1");
    // Asked to sync until the history is complete (each ask is refused while the dead instance's lease stands),
    // then left alone until the run in progress ends, so the comparison sees no write in flight. Once the sync
    // has nearly used its share of a minute (bulk work: the budget less the reserve for people), people open pages
    // no cache holds on all three instances, so the demo key's minute reaches the whole budget (checked below:
    // staying within a budget the load never reached would prove nothing); if the sync ends first, they open them
    // then, as many as the minute has room for.
    let clicks: Promise<{ page: number; status: number }[]> | undefined;
    for (;;) {
      await b.fetch("/api/sync", { method: "POST" });
      const status = await syncStatus(b);
      if (status.state === "ready") break;
      if (status.running && lastMinute() >= SYNC_BUSY) clicks ??= openUncachedPages();
      await new Promise((r) => setTimeout(r, 500));
    }
    const opened = await (clicks ?? openUncachedPages());
    expect(opened).toEqual(opened.map(({ page }) => ({ page, status: 200 })));
    while ((await syncStatus(b)).running) await new Promise((r) => setTimeout(r, 250));
    const upstreamIds = stack.upstreamIds("PFL");
    const mirrored = [...(await stack.mirrorIds()).values()].find((ids) => ids.includes(upstreamIds[0] ?? ""));
    expect(mirrored?.length).toBe(upstreamIds.length);
    expect(mirrored).toEqual(upstreamIds);
  }, 180_000);

  it("the provider never answered 429, and no minute held more than its budget of the demo key's requests", async () => {
    await settle();
    expect(stack.seen.filter((s) => s.status === 429)).toEqual([]);
    const demoFull = stack.seen.filter((s) => s.at > othersDoneAt).map((s) => s.at);
    // The load must press on the budget, or staying within it proves nothing: more of the demo key's requests than
    // one minute allows, and a busiest minute at least at the sync's share (the budget less the reserve for people).
    // Not yet the whole budget: the clicks during the takeover brought it to 47–60 in runs so far, not reliably 55+.
    expect(demoFull.length).toBeGreaterThan(PROVIDER_BUDGET);
    const busiest = busiestWindow(demoFull, PROVIDER_WINDOW_MS - OBSERVATION_SLACK_MS);
    expect(busiest).toBeGreaterThanOrEqual(PROVIDER_BUDGET - reserveOf(PROVIDER_BUDGET));
    expect(busiest).toBeLessThanOrEqual(PROVIDER_BUDGET);
  });

  it("one POST /auth for the demo key per token lifetime, across all the instances", () => {
    const demoAuths = stack.seen.filter((s) => s.at > othersDoneAt && s.method === "POST" && s.path === "/api/v1/auth");
    const elapsedMs = Math.max(...stack.seen.map((s) => s.at)) - othersDoneAt;
    // The test spans several lifetimes (else the bound below would not be put to the test)...
    expect(elapsedMs).toBeGreaterThan(2 * TOKEN_TTL_SECONDS * 1000);
    // ...and each lifetime started at most one POST /auth, whichever instance needed the token (+1: the sign-in's).
    expect(demoAuths.length).toBeGreaterThanOrEqual(2);
    expect(demoAuths.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / (TOKEN_TTL_SECONDS * 1000)) + 1);
  });
});

interface Pair {
  keyId: string;
  secret: string;
}
