import { describe, expect, it } from "vitest";

import type { StationPricesReply } from "@/lib/model";
import { startApp } from "@/test/app-process";
import { isDetailCall, PROFILES, SESSION_SECRET, settle, stationIds, upstreamRequests } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { startSandboxProcess } from "@/test/sandbox-process";

import { priceChecksAllowed, reserveOf } from "./station-details";

// The price checks' share of the request budget: the rule itself, then over real HTTP (`next start` of the built app
// against the sandbox as a separate process, in both profiles) with a small budget and with an upstream 429.

describe("the price-check budget rule", () => {
  it("keeps a quarter of the budget (at least 5) and counts the checks already running", () => {
    expect(reserveOf(60)).toBe(15);
    expect(reserveOf(120)).toBe(30);
    expect(reserveOf(8)).toBe(5);
    expect(priceChecksAllowed({ budget: 60, sent: 0 }, 0)).toBe(45);
    expect(priceChecksAllowed({ budget: 60, sent: 20 }, 10)).toBe(15);
    expect(priceChecksAllowed({ budget: 60, sent: 50 }, 0)).toBe(0);
    expect(priceChecksAllowed({ budget: 60, sent: 60 }, 5)).toBe(0);
  });
});

describe.each(PROFILES)("price checks leave part of the request budget free (%s profile)", (profile) => {
  it("checks only while the window keeps a quarter of the budget free, defers the rest, and other pages still get through", async () => {
    // A budget of 20 in a one-hour window: nothing leaves the window during the test, so the count is exact.
    const upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    const app = await startApp({
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_SECRET,
      FLEET_API_BUDGET: "20",
      FLEET_API_WINDOW_SECONDS: "3600",
    });
    try {
      const b = new TestBrowser(app.origin);
      expect((await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret)).status).toBe(200);
      await settle();
      const sentBefore = upstreamRequests(upstream).length;
      const ids = stationIds(upstream, 25);
      const res = await b.fetch(`/api/locations/prices?ids=${ids.join(",")}`);
      expect(res.status).toBe(200);
      const reply = res.body as StationPricesReply;
      const budget = 20;
      const checkable = budget - reserveOf(budget) - sentBefore;
      expect(checkable).toBeGreaterThan(0);
      // Nearest first: the ids are checked in the order given, the rest deferred with a time to ask again.
      expect(reply.items.map((i) => i.id)).toEqual(ids.slice(0, checkable));
      expect(reply.deferred).toEqual(ids.slice(checkable));
      expect(reply.retryAfterSeconds).toBeGreaterThan(0);
      await settle();
      expect(upstreamRequests(upstream).length).toBe(budget - reserveOf(budget));
      // Asking again while there is no room costs no upstream call; the checked ones come from the cache.
      const again = (await b.fetch(`/api/locations/prices?ids=${ids.join(",")}`)).body as StationPricesReply;
      expect(again.items).toHaveLength(checkable);
      expect(again.deferred).toEqual(ids.slice(checkable));
      await settle();
      expect(upstreamRequests(upstream).length).toBe(budget - reserveOf(budget));
      // The reserve is there for the user's other pages.
      expect((await b.fetch("/api/transactions?limit=5")).status).toBe(200);
    } finally {
      await app.stop();
      await upstream.stop();
    }
  }, 240_000);

  it("an upstream 429 during the checks is a 429 with Retry-After; what was checked stays cached, the paused key is not asked again", async () => {
    // The sandbox allows 4 requests an hour: POST /auth and a few details pass, then it says 429 with a long wait.
    const upstream = await startSandboxProcess({
      profile,
      log: true,
      args: ["--budget", "4", "--window-seconds", "3600"],
    });
    const app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "1000" });
    try {
      const b = new TestBrowser(app.origin);
      const login = await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
      expect(login.status).toBe(200);
      const ids = stationIds(upstream, 8);
      const res = await b.fetch(`/api/locations/prices?ids=${ids.join(",")}`);
      expect(res.status).toBe(429);
      expect(errorCodeOf(res.body)).toBe("rate_limited");
      expect(Number(res.res.headers.get("retry-after"))).toBeGreaterThan(30);
      expect(errorMessageOf(res.body)).toMatch(/asked us to wait \d+ s/);
      await settle();
      const passed = upstreamRequests(upstream)
        .filter((r) => isDetailCall(r) && r.endsWith(" 200"))
        .map((r) => /\/locations\/([^/\s]+) /.exec(r)?.[1] ?? "");
      expect(passed.length).toBeGreaterThan(0);
      const calls = upstreamRequests(upstream).length;
      // The stations checked before the 429 are served from the cache; the others get the wait, with no upstream call.
      const cached = await b.fetch(`/api/locations/prices?ids=${passed.join(",")}`);
      expect(cached.status).toBe(200);
      expect((cached.body as StationPricesReply).items.map((i) => i.id)).toEqual(passed);
      const rest = ids.filter((id) => !passed.includes(id));
      const paused = await b.fetch(`/api/locations/prices?ids=${rest.join(",")}`);
      expect(paused.status).toBe(429);
      expect(Number(paused.res.headers.get("retry-after"))).toBeGreaterThan(30);
      expect(upstreamRequests(upstream).length).toBe(calls);
    } finally {
      await app.stop();
      await upstream.stop();
    }
  }, 240_000);
});
