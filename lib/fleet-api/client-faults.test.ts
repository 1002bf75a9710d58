import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer, type ScriptedReply } from "@/test/fault-server";
import { VirtualClock } from "@/test/virtual-clock";
import { RequestBudget } from "./budget";
import { MemoryBudgetStore } from "./budget-store";
import { FleetApiClient } from "./client";
import { rejection } from "@/test/expect-error";
import { resetVariants } from "./negotiation";

// Faults on cue come from a small scripted server (see test/fault-server.ts): the sandbox cannot answer
// "429 with Retry-After 7, then 200" or "503 on /auth only" deterministically.

const KEYS = { keyId: "ffk_0123456789abcdef01234567", secret: "ffs_test-secret-value" };
const TOKEN = { status: 200, body: { ok: true, access_token: "fft_token-1", token_type: "Bearer", expires_in: 3600 } };
const ACCOUNT = {
  status: 200,
  body: {
    ok: true,
    customer: { id: "8f14e45f-ceea-467f-a0e6-5b3d8a7c9d10", name: "Test Fleet", code: "TF", active: true },
    totals_30d: { transactions: 2, gallons: "10.500", amount: "40.00" },
  },
};
const err = (status: number, error: string, headers: Record<string, string> = {}): ScriptedReply => ({
  status,
  headers,
  body: { ok: false, error, message: `${error} happened` },
});

describe("FleetApiClient under scripted faults", () => {
  let server: FaultServer;
  let clock: VirtualClock;
  const client = (options: Partial<ConstructorParameters<typeof FleetApiClient>[0]> = {}) =>
    new FleetApiClient({
      baseUrl: server.baseUrl,
      clock,
      budget: new RequestBudget({ clock }),
      random: () => 0.5,
      ...options,
    });
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

  it("keeps the token through its last minute (the provider would return the same one) and renews it once it has expired", async () => {
    server.script(
      "POST /auth",
      { status: 200, body: { ...TOKEN.body, expires_in: 600 } },
      { status: 200, body: { ...TOKEN.body, access_token: "fft_token-2" } },
    );
    server.fallback("GET /account-details", () => ACCOUNT);
    const c = client();
    await c.getAccount(KEYS);
    clock.ms += 530_000; // 70 s left
    await c.getAccount(KEYS);
    clock.ms += 20_000; // 50 s left: renewing now would only get the same token back
    await c.getAccount(KEYS);
    clock.ms += 49_000; // 1 s left by our reckoning: wait that second out, then one POST /auth gets the next token
    await c.getAccount(KEYS);
    expect(gets("/account-details").map((r) => r.authorization)).toEqual([
      "Bearer fft_token-1",
      "Bearer fft_token-1",
      "Bearer fft_token-1",
      "Bearer fft_token-2",
    ]);
    expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(2);
    expect(clock.sleeps).toEqual([1_000]);
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

  it("sign-ins, re-authentications after a 401 and Basic checks share one allowance of 12 failed checks a minute", async () => {
    // Scripted: the sandbox cannot take POST /auth down while Basic keeps working.
    const revoked = new Set<string>();
    let isAuthDown = false;
    const refused = {
      status: 401,
      body: { ok: false, error: "unauthenticated", message: "Unknown key id or wrong secret, or the key was revoked." },
    };
    const isGood = (secret: string) => secret.startsWith("ffs_good") && !revoked.has(secret);
    server.fallback("POST /auth", (req) => {
      if (isAuthDown) return err(503, "server_error");
      const { secret } = JSON.parse(req.body) as { secret: string };
      return isGood(secret) ? { status: 200, body: { ...TOKEN.body, access_token: `fft_${secret}` } } : refused;
    });
    server.fallback("GET /account-details", (req) => {
      const [scheme = "", value = ""] = (req.authorization ?? "").split(" ");
      const secret =
        scheme === "Bearer"
          ? value.slice("fft_".length)
          : (Buffer.from(value, "base64").toString().split(":")[1] ?? "");
      return isGood(secret) ? ACCOUNT : refused;
    });
    const c = client();
    const pair = (secret: string) => ({ keyId: KEYS.keyId, secret });

    for (let i = 0; i < 4; i++)
      expect((await rejection(c.authenticate(pair(`ffs_wrong-${String(i)}`)))).code).toBe("unauthenticated");
    for (let i = 0; i < 4; i++) await c.getAccount(pair(`ffs_good-${String(i)}`));
    for (let i = 0; i < 4; i++) revoked.add(`ffs_good-${String(i)}`);
    // Each re-authentication after the 401 fails: a failed check too, though the pair was known good.
    for (let i = 0; i < 4; i++)
      expect((await rejection(c.getAccount(pair(`ffs_good-${String(i)}`)))).code).toBe("unauthenticated");
    isAuthDown = true;
    const basicCodes: string[] = [];
    for (let i = 0; i < 6; i++) basicCodes.push((await rejection(c.authenticate(pair(`ffs_basic-${String(i)}`)))).code);
    expect(basicCodes).toEqual([
      "unauthenticated",
      "unauthenticated",
      "unauthenticated",
      "unauthenticated",
      "too_many_failed_checks",
      "too_many_failed_checks",
    ]);
    expect(server.requests.filter((r) => r.authorization?.startsWith("Basic ") === true)).toHaveLength(4);
    // 4 wrong sign-ins, 4 good ones, 4 refused re-authentications: 12 failed checks reached the server in all.
    expect(server.requests.filter((r) => r.path === "/auth" && !r.body.includes("ffs_basic"))).toHaveLength(12);
    clock.ms += 60_000; // a minute later the allowance is back
    expect((await rejection(c.authenticate(pair("ffs_basic-late")))).code).toBe("unauthenticated");
  });

  it("does not fall back to Basic when /auth says the credentials are wrong", async () => {
    server.fallback("POST /auth", () => ({
      status: 401,
      body: { error: { code: "invalid_credentials", message: "unknown key id or wrong secret" } },
    }));
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_credentials");
    expect(gets("/account-details")).toHaveLength(0);
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

  const PAGE = (items: unknown[], page = 1, pages = 1, limit = 200) => ({
    status: 200,
    body: { ok: true, data: { page, limit, total: items.length, pages, items } },
  });
  const formRejected = (param: string): ScriptedReply => ({
    status: 400,
    body: { error: { code: "bad_request", message: `${param} must be an ISO 8601 datetime` } },
  });

  it("negotiates the date form once even when several calls race into the 400", async () => {
    server.fallback("GET /transactions", (r) => (r.query.get("from")?.includes("T") ? PAGE([]) : formRejected("from")));
    const c = client();
    await Promise.all(
      Array.from({ length: 4 }, () => c.listTransactions(KEYS, { from: "2026-05-01", to: "2026-05-31" })),
    );
    await c.listTransactions(KEYS, { from: "2026-05-01" });
    const sent = gets("/transactions").map((r) => r.query.get("from"));
    expect(sent.filter((f) => f === "2026-05-01")).toHaveLength(4); // each racer tried the primary form once
    expect(sent.at(-1)).toBe("2026-05-01T00:00:00Z"); // then remembered
    expect(gets("/transactions").at(-1)?.query.get("to")).toBe(null);
  });

  it("a 400 for the same parameter in both forms is a real input error: reported, and the form is kept", async () => {
    server.fallback("GET /transactions", () => ({
      status: 400,
      body: { ok: false, error: "bad_request", message: "from is too far in the past" },
    }));
    const c = client();
    const error = await rejection(c.listTransactions(KEYS, { from: "2001-01-01" }));
    expect(error.code).toBe("bad_request");
    expect(error.field).toBe("from");
    expect(gets("/transactions").map((r) => r.query.get("from"))).toEqual(["2001-01-01", "2001-01-01T00:00:00Z"]);
    server.fallback("GET /transactions", () => PAGE([]));
    await c.listTransactions(KEYS, { from: "2026-01-01" });
    expect(gets("/transactions").at(-1)?.query.get("from")).toBe("2026-01-01"); // still the primary form
  });

  it("refuses from after to itself, without asking the upstream", async () => {
    const error = await rejection(client().listTransactions(KEYS, { from: "2026-05-02", to: "2026-05-01" }));
    expect(error).toMatchObject({ code: "bad_request", field: "from" });
    expect(server.requests).toHaveLength(0);
  });

  it("switches locations search to q when search is refused, and back when q is", async () => {
    server.fallback("GET /locations", (r) =>
      r.query.has("q")
        ? PAGE([])
        : { status: 400, body: { ok: false, error: "bad_request", message: "Unknown query parameter: search." } },
    );
    const c = client();
    await c.listLocations(KEYS, { search: "pilot" });
    await c.listLocations(KEYS, { search: "loves" });
    expect(gets("/locations").map((r) => [...r.query.keys()].join())).toEqual(["search", "q", "q"]);
  });

  it("never falls back to Basic when /auth rejects the credentials with a status other than 401", async () => {
    server.fallback("POST /auth", () => ({
      status: 404,
      body: { error: { code: "invalid_credentials", message: "unknown key id or wrong secret" } },
    }));
    const error = await rejection(client().getAccount(KEYS));
    expect(error.code).toBe("invalid_credentials");
    expect(gets("/account-details")).toHaveLength(0);
  });

  it("authenticate() checks the pair with Basic when /auth is down", async () => {
    server.fallback("POST /auth", () => err(503, "server_error"));
    server.script("GET /account-details", ACCOUNT);
    expect(await client().authenticate(KEYS)).toEqual({ scopes: null });
    expect(gets("/account-details")[0]?.authorization).toMatch(/^Basic /);
    server.script("GET /account-details", err(401, "unauthenticated"));
    expect((await rejection(client().authenticate(KEYS))).status).toBe(401);
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

  it("a caller that aborts while waiting for the shared POST /auth leaves; the others get the token", async () => {
    server.fallback("POST /auth", () => ({ ...TOKEN, delayMs: 300 }));
    server.fallback("GET /account-details", () => ACCOUNT);
    const c = client();
    const controller = new AbortController();
    const leaving = rejection(c.getAccount(KEYS, { signal: controller.signal }));
    const staying = c.getAccount(KEYS);
    setTimeout(() => {
      controller.abort();
    }, 50);
    expect((await leaving).code).toBe("aborted");
    expect((await staying).name).toBe("Test Fleet");
    expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(1);
  });

  it("an upstream that echoes the secret in an error message does not get it any further", async () => {
    server.fallback("POST /auth", () => err(503, "server_error"));
    server.script("GET /account-details", {
      status: 401,
      body: { ok: false, error: "unauthenticated", message: `bad Basic credentials ${KEYS.keyId}:${KEYS.secret}` },
    });
    const calls: unknown[] = [];
    const error = await rejection(client({ onUpstreamCall: (call) => calls.push(call) }).getAccount(KEYS));
    expect(error.message).toContain("[redacted]");
    expect(JSON.stringify({ message: error.message, stack: error.stack, calls })).not.toContain(KEYS.secret);
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

  it("refuses a base URL that would send the key pair in clear or carries credentials", () => {
    expect(() => new FleetApiClient({ baseUrl: "http://api.example.com/api/v1" })).toThrow(/https/);
    expect(() => new FleetApiClient({ baseUrl: "https://user:pw@api.example.com/api/v1" })).toThrow(
      /user name or password/,
    );
    expect(() => new FleetApiClient({ baseUrl: "not a url" })).toThrow(/absolute URL/);
    expect(new FleetApiClient({ baseUrl: "https://api.example.com/api/v1/" }).baseUrl).toBe(
      "https://api.example.com/api/v1",
    );
    expect(new FleetApiClient({ baseUrl: "http://127.0.0.1:4010/api/v1" }).baseUrl).toBe(
      "http://127.0.0.1:4010/api/v1",
    );
    expect(new FleetApiClient({ baseUrl: "http://10.0.0.5/api/v1", allowInsecureHttp: true }).baseUrl).toBe(
      "http://10.0.0.5/api/v1",
    );
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

/** The memory store, recording when it granted each slot (the moment a request may be sent). */
class RecordingStore extends MemoryBudgetStore {
  readonly grants: number[] = [];
  override async tryAcquire(
    key: string,
    nowMs: number,
    budget: number,
    windowMs: number,
  ): ReturnType<MemoryBudgetStore["tryAcquire"]> {
    const result = await super.tryAcquire(key, nowMs, budget, windowMs);
    if (result.granted) this.grants.push(nowMs);
    return result;
  }
}

describe("FleetApiClient, any interleaving of callers (property)", () => {
  it("N concurrent callers with no token cause one POST /auth, and sends stay within the budget in every window", async () => {
    const server = await startFaultServer();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              priority: fc.constantFrom("interactive" as const, "bulk" as const),
              delayMs: fc.integer({ min: 0, max: 90_000 }),
            }),
            { minLength: 1, maxLength: 40 },
          ),
          fc.integer({ min: 2, max: 12 }),
          async (callers, budgetSize) => {
            server.requests.length = 0;
            server.fallback("POST /auth", () => TOKEN);
            server.fallback("GET /account-details", () => ACCOUNT);
            const clock = new VirtualClock();
            const store = new RecordingStore();
            const c = new FleetApiClient({
              baseUrl: server.baseUrl,
              clock,
              budget: new RequestBudget({ clock, budget: budgetSize, windowMs: 60_000, store }),
            });
            const start = clock.now();
            await Promise.all(
              callers.map(async ({ priority, delayMs }) => {
                await clock.sleep(delayMs);
                await c.getAccount(KEYS, { priority });
              }),
            );
            expect(server.requests.filter((r) => r.path === "/auth")).toHaveLength(1);
            expect(server.requests.filter((r) => r.path === "/account-details")).toHaveLength(callers.length);
            // Every send took a budget slot, and any budget+1 consecutive slots span at least one window.
            expect(store.grants).toHaveLength(callers.length + 1);
            const sorted = [...store.grants].sort((a, b) => a - b);
            for (let i = budgetSize; i < sorted.length; i++)
              expect((sorted[i] ?? 0) - (sorted[i - budgetSize] ?? 0)).toBeGreaterThanOrEqual(60_000);
            expect(clock.now()).toBeGreaterThanOrEqual(start);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await server.close();
    }
  });
});
