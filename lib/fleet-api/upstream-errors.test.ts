import { describe, expect, it } from "vitest";

import { FleetApiError } from "./errors";
import type { UpstreamReply } from "./http";
import { isAuthUnavailable, judgeCheck, upstreamError } from "./upstream-errors";

const KEYS = { keyId: "ffk_0123456789abcdef01234567", secret: "ffs_test-secret-value" };
const NOW = Date.parse("2026-06-15T12:00:00Z");
const reply = (status: number, error: string, message: string, retryAfter: string | null = null): UpstreamReply => ({
  status,
  retryAfter,
  body: { ok: false, error, message },
  malformed: false,
});

describe("upstreamError", () => {
  it("redacts a secret the upstream echoes, keeping the rest of the error", () => {
    const error = upstreamError(reply(429, "rate_limited", `slow down, ${KEYS.secret}`, "7"), KEYS, NOW);
    expect(error.message).toBe("slow down, [redacted]");
    expect(error.code).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(7);
  });

  it("turns a 401 that blames the caller's address into address_refused", () => {
    const error = upstreamError(reply(401, "unauthenticated", "Your IP address is not on the allow-list"), KEYS, NOW);
    expect(error.code).toBe("address_refused");
    expect(upstreamError(reply(401, "unauthenticated", "Invalid key"), KEYS, NOW).code).toBe("unauthenticated");
  });
});

describe("judgeCheck", () => {
  it("reads a verdict on the pair from a check's reply, or none", () => {
    expect(judgeCheck({ status: 200, retryAfter: null, body: {}, malformed: false }, KEYS, NOW)).toEqual({
      kind: "verified",
    });
    expect(judgeCheck(reply(403, "scope_denied", "missing scope read"), KEYS, NOW)).toEqual({ kind: "verified" });
    expect(judgeCheck(reply(401, "invalid_credentials", "Wrong secret"), KEYS, NOW)).toMatchObject({
      kind: "refused",
      code: "invalid_credentials",
    });
    expect(judgeCheck(reply(401, "unauthenticated", "caller's address refused"), KEYS, NOW)).toMatchObject({
      kind: "address_refused",
    });
    expect(judgeCheck(reply(429, "rate_limited", "later"), KEYS, NOW)).toBeUndefined();
    expect(judgeCheck(reply(503, "server_error", "down"), KEYS, NOW)).toBeUndefined();
  });
});

describe("isAuthUnavailable", () => {
  const error = (status: number, code: FleetApiError["code"]) => new FleetApiError({ status, code, message: "m" });
  it("is true when POST /auth could not be used, never for a verdict on the credentials", () => {
    expect(isAuthUnavailable(error(0, "network_error"))).toBe(true);
    expect(isAuthUnavailable(error(0, "timeout"))).toBe(true);
    expect(isAuthUnavailable(error(404, "not_found"))).toBe(true);
    expect(isAuthUnavailable(error(503, "server_error"))).toBe(true);
    expect(isAuthUnavailable(error(404, "invalid_credentials"))).toBe(false);
    expect(isAuthUnavailable(error(500, "unauthenticated"))).toBe(false);
    expect(isAuthUnavailable(error(429, "rate_limited"))).toBe(false);
  });
});
