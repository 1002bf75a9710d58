import { randomBytes } from "node:crypto";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { rejection } from "@/test/expect-error";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";
import { VirtualClock } from "@/test/virtual-clock";

import { RequestBudget } from "./budget";
import { FleetApiClient } from "./client";
import type { UpstreamCall } from "./client-options";
import { DEFAULT_FAILED_CHECKS } from "./credential-checks";
import { resetVariants } from "./negotiation";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("token expiry against the sandbox", () => {
  it("re-authenticates once when the upstream drops a token the client still holds, mid-walk", async () => {
    // Tokens live 2 s upstream (6 pages at 400 ms outlive one); the client's clock is frozen so it keeps the token
    // until a 401 says otherwise.
    const upstream = await startSandboxProcess({
      args: ["--budget", "100000", "--token-ttl-seconds", "2", "--fault-latency", "400"],
    });
    try {
      const calls: UpstreamCall[] = [];
      const frozen = {
        now: () => Date.parse("2026-06-15T12:00:00Z"),
        sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
      };
      const client = new FleetApiClient({
        baseUrl: upstream.baseUrl,
        clock: frozen,
        onUpstreamCall: (c) => calls.push(c),
      });
      const items = await collect(client.iterateTransactions(upstream.keys["demo-full"], {}, { pageSize: 200 }));
      const total = (await client.listTransactions(upstream.keys["demo-full"], { limit: 1 })).total;
      expect(new Set(items.map((i) => i.id)).size).toBe(total);
      expect(items).toHaveLength(total);
      expect(calls.filter((c) => c.path === "/transactions" && c.status === 401).length).toBeGreaterThan(0);
      expect(calls.filter((c) => c.path === "/auth").length).toBeGreaterThan(1);
    } finally {
      await upstream.stop();
    }
  }, 60_000);
});

describe.each(["primary", "alternative"] as const)(
  "key-pair checks and token lifetime against the sandbox (%s profile)",
  (profile) => {
    let upstream: SandboxProcess;
    const origin = () => upstream.baseUrl.replace(/\/api\/v1$/, "");
    const put = async (path: string, body: unknown) => {
      const res = await fetch(`${origin()}${path}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    };
    /** Statuses of the POST /auth requests the sandbox logged. */
    const authStatuses = () =>
      [...upstream.output().matchAll(/\[sandbox\] POST \/api\/v1\/auth (\d{3})/g)].map((m) => m[1] ?? "");

    beforeAll(async () => {
      upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000", "--control"] });
    });
    afterAll(() => upstream.stop());
    beforeEach(() => {
      resetVariants();
    });

    it("costs one POST /auth per token lifetime: none across the token's last minute, one once it has expired", async () => {
      // Both clocks move together: the client's is virtual, the sandbox's runs ahead by the same offset (/sandbox/clock).
      const clock = new VirtualClock(Date.now());
      let offsetMs = 0;
      const advance = async (ms: number) => {
        clock.ms += ms;
        offsetMs += ms;
        await put("/sandbox/clock", { offsetMs });
      };
      const calls: UpstreamCall[] = [];
      const client = new FleetApiClient({
        baseUrl: upstream.baseUrl,
        clock,
        budget: new RequestBudget({ clock, budget: 100_000 }),
        onUpstreamCall: (c) => calls.push(c),
      });
      const pair = upstream.keys["demo-full"];
      await client.getAccount(pair);
      await advance(3_540_000); // the token's last minute: the sandbox would answer POST /auth with the same token
      for (let left = 60; left > 0; left -= 5) {
        await client.getAccount(pair);
        await advance(5_000);
      }
      await client.getAccount(pair); // expired now: one POST /auth gets the next token
      await client.getAccount(pair);
      const auths = calls.filter((c) => c.path === "/auth");
      expect(auths.map((c) => c.status)).toEqual([200, 200]);
      expect(calls.filter((c) => c.path === "/account-details").map((c) => c.status)).toEqual(
        Array<number>(15).fill(200),
      );
    });

    it("a 429 to POST /auth (the address's allowance, not the key's) leaves the key's budget as configured", async () => {
      const clock = new VirtualClock(Date.now());
      const client = new FleetApiClient({
        baseUrl: upstream.baseUrl,
        clock,
        budget: new RequestBudget({ clock, budget: 100 }),
      });
      const pair = upstream.keys["demo-no-transactions"];
      await put("/sandbox/faults", { rateLimitSeconds: 1 });
      try {
        expect((await rejection(client.authenticate(pair))).code).toBe("rate_limited");
      } finally {
        await fetch(`${origin()}/sandbox/faults`, { method: "DELETE" });
      }
      expect(authStatuses().filter((s) => s === "429").length).toBeGreaterThanOrEqual(2);
      expect((await client.budgetUse(pair)).budget).toBe(100);
      await client.authenticate(pair);
    });

    it("counts every failed key-pair check in one allowance: 30 wrong sign-ins at once reach the provider at most 16 times, and it never says 429", async () => {
      const client = new FleetApiClient({ baseUrl: upstream.baseUrl, budget: new RequestBudget({ budget: 100_000 }) });
      const demo = upstream.keys["demo-full"];
      const before = authStatuses().length;
      // Random key ids, and wrong secrets for the demo key id (ids are not secret).
      const wrong = Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? { keyId: `ffk_${randomBytes(12).toString("hex")}`, secret: "ffs_guess" }
          : { keyId: demo.keyId, secret: `ffs_guess-${String(i)}` },
      );
      const codes = await Promise.all(wrong.map(async (pair) => (await rejection(client.authenticate(pair))).code));
      const seen = authStatuses().slice(before);
      expect(seen.length).toBeLessThanOrEqual(DEFAULT_FAILED_CHECKS); // 16, under the sandbox's 20
      expect(seen.every((s) => s === "401")).toBe(true);
      expect(codes.filter((c) => c === "too_many_failed_checks")).toHaveLength(30 - seen.length);
      // A pair refused once is answered from its verdict: no check, no place in the allowance.
      const again = await rejection(client.authenticate(wrong[1] ?? demo));
      expect(again.code).toBe(profile === "primary" ? "unauthenticated" : "invalid_credentials");
      expect(authStatuses().slice(before)).toHaveLength(seen.length);
    });
  },
);
