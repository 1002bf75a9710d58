import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer, type ScriptedReply } from "@/test/fault-server";
import { VirtualClock } from "@/test/virtual-clock";
import { RequestBudget } from "./budget";
import { FleetApiClient } from "./client";
import { FleetApiError } from "./errors";
import { resetVariants } from "./negotiation";

// Faults on cue come from a small scripted server (see test/fault-server.ts): the sandbox cannot answer
// "429 with Retry-After 7, then 200" or "503 on /auth only" deterministically.

const KEYS = { keyId: "ffk_0123456789abcdef01234567", secret: "ffs_test-secret-value" };
const TOKEN = { status: 200, body: { ok: true, access_token: "fft_token-1", token_type: "Bearer", expires_in: 3600 } };
const ACCOUNT = {
  status: 200,
  body: { ok: true, customer: { id: "8f14e45f-ceea-467f-a0e6-5b3d8a7c9d10", name: "Test Fleet", code: "TF", active: true }, totals_30d: { transactions: 2, gallons: "10.500", amount: "40.00" } },
};
const err = (status: number, error: string, headers: Record<string, string> = {}): ScriptedReply => ({ status, headers, body: { ok: false, error, message: `${error} happened` } });

async function rejection(promise: Promise<unknown>): Promise<FleetApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FleetApiError) return error;
    throw error;
  }
  throw new Error("expected a FleetApiError");
}

describe("FleetApiClient under scripted faults", () => {
  let server: FaultServer;
  let clock: VirtualClock;
  const client = (options: Partial<ConstructorParameters<typeof FleetApiClient>[0]> = {}) =>
    new FleetApiClient({ baseUrl: server.baseUrl, clock, budget: new RequestBudget({ clock }), random: () => 0.5, ...options });
  const gets = (path: string) => server.requests.filter((r) => r.method === "GET" && r.path === path);

  beforeEach(async () => {
    server = await startFaultServer();
    clock = new VirtualClock();
    resetVariants();
    server.fallback("POST /auth", () => TOKEN);
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
    server.script("GET /account-details", err(502, "server_error"), err(503, "server_error"), err(504, "server_error"), ACCOUNT);
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

  it("understands Retry-After as an HTTP-date", async () => {
    const at = new Date(clock.now() + 12_000).toUTCString();
    server.script("GET /account-details", err(429, "rate_limited", { "Retry-After": at }), ACCOUNT);
    const started = clock.now();
    await client().getAccount(KEYS);
    expect(clock.now() - started).toBeGreaterThanOrEqual(11_000);
  });

  it("a 429 storm ends in rate_limited with the wait to tell the user", async () => {
    server.script("GET /account-details", ...Array.from({ length: 5 }, () => err(429, "rate_limited", { "Retry-After": "23" })));
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

  it("on a 401 to a bearer call, drops the token, authenticates again once and retries once", async () => {
    server.script("POST /auth", TOKEN, { status: 200, body: { ...TOKEN.body, access_token: "fft_token-2" } });
    server.script("GET /account-details", err(401, "unauthenticated"), ACCOUNT);
    await client().getAccount(KEYS);
    expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(2);
    expect(gets("/account-details").map((r) => r.authorization)).toEqual(["Bearer fft_token-1", "Bearer fft_token-2"]);
  });

  it("a second 401 in a row is final", async () => {
    server.script("GET /account-details", err(401, "unauthenticated"), err(401, "unauthenticated"), ACCOUNT);
    expect((await rejection(client().getAccount(KEYS))).status).toBe(401);
    expect(gets("/account-details")).toHaveLength(2);
  });

  it("renews the token shortly before expires_in runs out", async () => {
    server.script("POST /auth", { status: 200, body: { ...TOKEN.body, expires_in: 600 } }, { status: 200, body: { ...TOKEN.body, access_token: "fft_token-2" } });
    server.fallback("GET /account-details", () => ACCOUNT);
    const c = client({ tokenRefreshMarginMs: 60_000 });
    await c.getAccount(KEYS);
    clock.ms += 530_000; // 70 s left: still fine
    await c.getAccount(KEYS);
    clock.ms += 20_000; // 50 s left: inside the margin
    await c.getAccount(KEYS);
    expect(gets("/account-details").map((r) => r.authorization)).toEqual(["Bearer fft_token-1", "Bearer fft_token-1", "Bearer fft_token-2"]);
  });

  it("falls back to HTTP Basic when POST /auth itself is unavailable", async () => {
    server.fallback("POST /auth", () => err(503, "server_error"));
    server.fallback("GET /account-details", () => ACCOUNT);
    const c = client();
    await c.getAccount(KEYS);
    await c.getAccount(KEYS);
    const expected = `Basic ${Buffer.from(`${KEYS.keyId}:${KEYS.secret}`).toString("base64")}`;
    expect(gets("/account-details").map((r) => r.authorization)).toEqual([expected, expected]);
    expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(1); // not asked again during the fallback period
  });

  it("does not fall back to Basic when /auth says the credentials are wrong", async () => {
    server.fallback("POST /auth", () => ({ status: 401, body: { error: { code: "invalid_credentials", message: "unknown key id or wrong secret" } } }));
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_credentials");
    expect(gets("/account-details")).toHaveLength(0);
  });

  it("honours the caller's AbortSignal while waiting out a backoff", async () => {
    server.script("GET /account-details", err(503, "server_error"), ACCOUNT);
    const controller = new AbortController();
    const realClock = { now: () => Date.now(), sleep: (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason as Error); }, { once: true });
    }) };
    const c = new FleetApiClient({ baseUrl: server.baseUrl, clock: realClock, backoffBaseMs: 60_000, random: () => 0.5 });
    const pending = rejection(c.getAccount(KEYS, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    expect((await pending).code).toBe("aborted");
    expect(gets("/account-details")).toHaveLength(1);
  });

  it("never sends a secret or token in a URL", async () => {
    server.fallback("GET /account-details", () => ACCOUNT);
    await client().getAccount(KEYS);
    for (const r of server.requests) {
      expect(r.query.toString()).not.toContain(KEYS.secret);
      expect(r.path).not.toContain(KEYS.secret);
      expect(r.query.toString()).not.toContain("fft_");
    }
  });
});
