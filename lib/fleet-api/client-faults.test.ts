import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { rejection } from "@/test/expect-error";
import type { FaultServer } from "@/test/fault-server";
import type { VirtualClock } from "@/test/virtual-clock";

import { FleetApiClient } from "./client";
import type { FleetApiClientOptions } from "./client-options";
import { ACCOUNT, clientOn, err, KEYS, PAGE, startFaults } from "./fixtures/fault-client";

describe("FleetApiClient under scripted faults: retries, 429s, timeouts, bad replies", () => {
  let server: FaultServer;
  let clock: VirtualClock;
  const client = (options: Partial<FleetApiClientOptions> = {}) => clientOn(server, clock, options);
  const gets = (path: string) => server.requests.filter((r) => r.method === "GET" && r.path === path);

  beforeEach(async () => {
    ({ server, clock } = await startFaults());
  });
  afterEach(() => server.close());

  it("retries a 500 and succeeds, after a backoff", async () => {
    server.script("GET /account-details", err(500, "server_error"), ACCOUNT);
    const account = await client().getAccount(KEYS);
    expect(account.name).toBe("Test Fleet");
    expect(gets("/account-details")).toHaveLength(2);
    expect(clock.slept).toBeGreaterThan(0);
  });

  it("gives up after 3 attempts on 502/503/504 with the last error", async () => {
    server.script(
      "GET /account-details",
      err(502, "server_error"),
      err(503, "server_error"),
      err(504, "server_error"),
      ACCOUNT,
    );
    const error = await rejection(client().getAccount(KEYS));
    expect(error.status).toBe(504);
    expect(error.code).toBe("server_error");
    expect(gets("/account-details")).toHaveLength(3);
  });

  it("waits out Retry-After (seconds) on 429, then retries", async () => {
    server.script("GET /account-details", err(429, "rate_limited", { "Retry-After": "7" }), ACCOUNT);
    const started = clock.now();
    await client().getAccount(KEYS);
    expect(clock.now() - started).toBeGreaterThanOrEqual(7000);
    expect(gets("/account-details")).toHaveLength(2);
  });

  it("with a shorter interactive wait (FLEET_API_INTERACTIVE_WAIT_SECONDS), answers a longer 429 with the wait at once and still waits out a shorter one", async () => {
    const short = { interactiveMaxWaitMs: 5000 };
    server.fallback("GET /account-details", () => ACCOUNT);
    const limited = (seconds: number) => err(429, "rate_limited", { "Retry-After": String(seconds) });
    server.script("GET /account-details", limited(7));
    const refused = await rejection(client(short).getAccount(KEYS));
    expect(refused).toMatchObject({ code: "rate_limited", retryAfterSeconds: 7 });
    expect(gets("/account-details")).toHaveLength(1);
    // A bulk call (nobody waits behind a spinner) waits it out whatever the interactive bound.
    server.script("GET /account-details", limited(7));
    await client(short).getAccount(KEYS, { priority: "bulk" });
    expect(gets("/account-details")).toHaveLength(3);
    server.script("GET /account-details", limited(4));
    await client(short).getAccount(KEYS);
    expect(gets("/account-details")).toHaveLength(5);
    // POST /auth's 429 (the provider's failed-check allowance) follows the same bound.
    const posts = () => server.requests.filter((r) => r.method === "POST" && r.path === "/auth").length;
    const before = posts();
    server.script("POST /auth", err(429, "rate_limited", { "Retry-After": "7" }));
    expect(await rejection(client(short).authenticate(KEYS))).toMatchObject({ retryAfterSeconds: 7 });
    expect(posts() - before).toBe(1);
  });

  it("understands Retry-After as an HTTP-date", async () => {
    const at = new Date(clock.now() + 12_000).toUTCString();
    server.script("GET /account-details", err(429, "rate_limited", { "Retry-After": at }), ACCOUNT);
    const started = clock.now();
    await client().getAccount(KEYS);
    expect(clock.now() - started).toBeGreaterThanOrEqual(11_000);
  });

  it("reads the Retry-After of any upstream error in either form, and believes 10 minutes at most", async () => {
    // One parser (lib/model/retry-after.ts) for every reply: a 503 or a 429 to POST /auth used to keep whole seconds only.
    const inSeconds = (s: number) => new Date(clock.now() + s * 1000).toUTCString();
    server.script("GET /account-details", err(503, "service_unavailable", { "Retry-After": inSeconds(45) }));
    expect((await rejection(client({ maxAttempts: 1 }).getAccount(KEYS))).retryAfterSeconds).toBe(45);
    server.script("GET /account-details", err(503, "service_unavailable", { "Retry-After": "86400" }));
    expect((await rejection(client({ maxAttempts: 1 }).getAccount(KEYS))).retryAfterSeconds).toBe(600);
    server.script("POST /auth", err(429, "rate_limited", { "Retry-After": inSeconds(90) }));
    const refused = await rejection(client().getAccount({ ...KEYS, keyId: "ffk_another0123456789abcdef" }));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBe(90);
  });

  it("a 429 storm ends in rate_limited with the wait to tell the user", async () => {
    server.script(
      "GET /account-details",
      ...Array.from({ length: 5 }, () => err(429, "rate_limited", { "Retry-After": "23" })),
    );
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(23);
    expect(gets("/account-details")).toHaveLength(3);
  });

  it("never retries 400, 403 or 404", async () => {
    server.script("GET /account-details", err(403, "scope_denied"));
    server.script("GET /locations/x", err(404, "not_found"));
    server.script("GET /transactions", err(400, "bad_request"));
    expect((await rejection(client().getAccount(KEYS))).code).toBe("scope_denied");
    expect((await rejection(client().getLocation(KEYS, "x"))).code).toBe("not_found");
    expect((await rejection(client().listTransactions(KEYS, { status: "pending" }))).code).toBe("bad_request");
    expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(3);
  });

  it("times out a slow reply and retries it", async () => {
    server.script("GET /account-details", { ...ACCOUNT, delayMs: 1500 }, ACCOUNT);
    const account = await client({ timeoutMs: 300 }).getAccount(KEYS);
    expect(account.name).toBe("Test Fleet");
    expect(gets("/account-details")).toHaveLength(2);
  });

  it("retries a cut connection", async () => {
    server.script("GET /account-details", { drop: true }, ACCOUNT);
    expect((await client().getAccount(KEYS)).name).toBe("Test Fleet");
  });

  it("turns malformed JSON into invalid_response, not a crash", async () => {
    server.script("GET /account-details", { status: 200, body: '{"ok": true, "customer": {"id": "' });
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_response");
  });

  it("turns a reply of neither shape into invalid_response naming the field", async () => {
    server.script("GET /account-details", { status: 200, body: { ok: true, customer: { id: 5, name: "X" } } });
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_response");
    expect(error.field).toBeDefined();
  });

  it("honours the caller's AbortSignal while waiting out a backoff", async () => {
    server.script("GET /account-details", err(503, "server_error"), ACCOUNT);
    const controller = new AbortController();
    const realClock = {
      now: () => Date.now(),
      sleep: (ms: number, signal?: AbortSignal) =>
        new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, ms);
          signal?.addEventListener(
            "abort",
            () => {
              clearTimeout(t);
              reject(signal.reason as Error);
            },
            { once: true },
          );
        }),
    };
    const c = new FleetApiClient({
      baseUrl: server.baseUrl,
      clock: realClock,
      backoffBaseMs: 60_000,
      random: () => 0.5,
    });
    const pending = rejection(c.getAccount(KEYS, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    expect((await pending).code).toBe("aborted");
    expect(gets("/account-details")).toHaveLength(1);
  });

  it("refuses a reply larger than 20 MB, chunked, without retrying it", async () => {
    server.script("GET /account-details", { status: 200, chunkedBytes: 25 * 1024 * 1024 }, ACCOUNT);
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_response");
    expect(gets("/account-details")).toHaveLength(1);
  });

  it("does not believe a Retry-After of a day: interactive calls fail fast with the wait, bulk ones wait at most 10 minutes", async () => {
    server.script("GET /account-details", err(429, "rate_limited", { "Retry-After": "86400" }));
    const started = clock.now();
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(600);
    expect(clock.now() - started).toBeLessThan(30_000);
    server.script("GET /account-details", err(429, "rate_limited", { "Retry-After": "86400" }), ACCOUNT);
    const bulkStart = clock.now();
    await client().getAccount(KEYS, { priority: "bulk" });
    expect(clock.now() - bulkStart).toBeGreaterThanOrEqual(600_000);
    expect(clock.now() - bulkStart).toBeLessThan(700_000);
  });

  it("keeps each id inside its own path segment", async () => {
    server.fallback("GET /transactions/x", () => err(404, "not_found"));
    const c = client();
    for (const id of ["../account-details", "a/../../account-details", "x?limit=1", "x#y", "%2E%2E", "x/.."])
      await rejection(c.getTransaction(KEYS, id));
    for (const id of ["..", ".", "", "x".repeat(300)])
      expect((await rejection(c.getTransaction(KEYS, id))).code).toBe("not_found");
    const paths = server.requests.filter((r) => r.method === "GET").map((r) => r.path);
    expect(paths).toHaveLength(6);
    for (const path of paths) expect(path).toMatch(/^\/transactions\/[^/]+$/);
  });

  it("walks on by the reply's pages even when the upstream returns fewer items than asked", async () => {
    const item = (n: number) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      transaction_id: `T${String(n)}`,
      transaction_at: "2026-05-01T10:00:00Z",
      status: "completed",
      product: "diesel",
      gallons: 10,
      price_per_gallon: 3.5,
      amount: 35,
      station: { id: "s1", name: "S", loc: "001", city: "C", state: "TX" },
      driver: { id: "d1", name: "D", truck_id: null },
      card: { last4: "1234" },
      def: { gallons: 0, amount: 0, category: "none" },
    });
    // The upstream caps limit at 2 and says so.
    server.fallback("GET /transactions", (r) => {
      const page = Number(r.query.get("page"));
      return PAGE(
        [item(page * 2 - 1), item(page * 2)].filter((_, i) => page < 3 || i === 0),
        page,
        3,
        2,
      );
    });
    const ids: string[] = [];
    for await (const t of client().iterateTransactions(KEYS)) ids.push(t.id);
    expect(ids).toHaveLength(5);
  });
});
