import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { rejection } from "@/test/expect-error";
import type { FaultServer } from "@/test/fault-server";
import type { VirtualClock } from "@/test/virtual-clock";

import { FleetApiClient } from "./client";
import type { FleetApiClientOptions } from "./client-options";
import { FailedCheckLimiter } from "./credential-checks";
import { ACCOUNT, clientOn, err, KEYS, startFaults, TOKEN } from "./fixtures/fault-client";

describe("FleetApiClient under scripted faults: tokens, HTTP Basic, key-pair checks, secrets", () => {
  let server: FaultServer;
  let clock: VirtualClock;
  const client = (options: Partial<FleetApiClientOptions> = {}) => clientOn(server, clock, options);
  const gets = (path: string) => server.requests.filter((r) => r.method === "GET" && r.path === path);

  beforeEach(async () => {
    ({ server, clock } = await startFaults());
  });
  afterEach(() => server.close());

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
    const c = client({ failedChecks: new FailedCheckLimiter({ max: 12, clock }) }); // the counts below: 12
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
