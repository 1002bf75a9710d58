import { describe, expect, it } from "vitest";

import { reshapeError } from "./error-body";
import { load } from "./fixtures/fixture-body";

describe("reshapeError", () => {
  it.each<[string, number, ReturnType<typeof reshapeError>]>([
    [
      "error-primary-scope-denied",
      403,
      {
        code: "scope_denied",
        message: "This API key lacks the read scope needed for GET /transactions.",
        scope: "read",
      },
    ],
    [
      "error-alternative-scope-denied",
      403,
      {
        code: "scope_denied",
        message: "This API key lacks the transactions scope needed for GET /transactions.",
        scope: "transactions",
      },
    ],
    [
      "error-primary-bad-request",
      400,
      { code: "bad_request", message: "limit must be between 1 and 200.", field: "limit" },
    ],
    [
      "error-alternative-bad-request",
      400,
      { code: "bad_request", message: "Unknown query parameter: search.", field: "search" },
    ],
    ["error-primary-unauthenticated", 401, { code: "unauthenticated", message: "Missing or invalid credentials." }],
    [
      "error-alternative-invalid-credentials",
      401,
      { code: "invalid_credentials", message: "Unknown key id or wrong secret." },
    ],
    ["error-primary-not-found", 404, { code: "not_found", message: "Transaction not found." }],
  ])("reads %s", (name, status, expected) => {
    expect(reshapeError(status, load(name))).toEqual(expected);
  });

  it("maps invalid_credentials whatever the status", () => {
    for (const status of [400, 401, 403, 500]) {
      expect(reshapeError(status, load("error-alternative-invalid-credentials")).code).toBe("invalid_credentials");
      expect(reshapeError(status, { ok: false, error: "invalid_credentials", message: "Unknown key id." }).code).toBe(
        "invalid_credentials",
      );
    }
  });

  const primaryBody = (code: string, message: string): unknown => ({ ok: false, error: code, message });
  const alternativeBody = (code: string, message: string): unknown => ({ error: { code, message } });
  const shapes = [
    ["primary", primaryBody],
    ["alternative", alternativeBody],
  ] as const;

  describe.each(shapes)("400 parameter names, %s body", (_shape, makeBody) => {
    it.each<[string, string | undefined]>([
      ["limit must be between 1 and 200.", "limit"],
      ["Unknown query parameter: q.", "q"],
      ["Unknown query parameter: search.", "search"],
      ["from must be an ISO date (YYYY-MM-DD).", "from"],
      ["from must not be after to.", "from"],
      ["from (2026-01-02) is after to (2026-01-01).", "from"],
      ["to must be an ISO 8601 datetime.", "to"],
      ["Repeated query parameter: page.", "page"],
      ["status must be one of completed, pending, failed.", "status"],
      ["`brand` is not a known chain code.", "brand"],
      ["Request body must be JSON.", undefined],
      ["Bad request.", undefined],
    ])("%j → %s", (message, field) => {
      const result = reshapeError(400, makeBody("bad_request", message));
      expect(result).toEqual(
        field === undefined ? { code: "bad_request", message } : { code: "bad_request", message, field },
      );
    });
  });

  describe.each(shapes)("403 scope names, %s body", (_shape, makeBody) => {
    it.each<[string, string | undefined]>([
      ["This API key lacks the read scope needed for GET /transactions.", "read"],
      ["This API key lacks the transactions scope.", "transactions"],
      ["This API key lacks the locations scope needed for GET /locations.", "locations"],
      ["Missing scope: account", "account"],
      ["Requires the `locations` scope.", "locations"],
      ["Forbidden.", undefined],
    ])("%j → %s", (message, scope) => {
      const result = reshapeError(403, makeBody("scope_denied", message));
      expect(result).toEqual(
        scope === undefined ? { code: "scope_denied", message } : { code: "scope_denied", message, scope },
      );
    });
  });

  it.each<[number, string]>([
    [400, "bad_request"],
    [401, "unauthenticated"],
    [403, "scope_denied"],
    [404, "not_found"],
    [409, "bad_request"],
    [429, "rate_limited"],
    [500, "server_error"],
    [502, "server_error"],
    [503, "server_error"],
  ])("falls back to the status for unknown bodies: %i → %s", (status, code) => {
    for (const body of [
      null,
      undefined,
      "<html>Bad gateway</html>",
      {},
      [],
      { error: 42 },
      { error: { message: "no code" } },
      { ok: false },
    ]) {
      const result = reshapeError(status, body);
      expect(result.code).toBe(code);
      expect(result.message.length).toBeGreaterThan(0);
      expect(result).not.toHaveProperty("field");
      expect(result).not.toHaveProperty("scope");
    }
  });

  it("falls back to the status for unknown codes, keeping the upstream's message", () => {
    expect(reshapeError(503, { ok: false, error: "maintenance", message: "Back at 02:00 UTC." })).toEqual({
      code: "server_error",
      message: "Back at 02:00 UTC.",
    });
    // Our own codes are not the upstream's to send.
    expect(reshapeError(404, { error: { code: "invalid_response", message: "x" } }).code).toBe("not_found");
  });

  it("uses a generic message when the upstream's is empty, and shortens a long one", () => {
    expect(reshapeError(429, { ok: false, error: "rate_limited", message: "  " }).message).toMatch(/budget/);
    expect(
      reshapeError(500, { ok: false, error: "server_error", message: "x".repeat(5000) }).message.length,
    ).toBeLessThanOrEqual(300);
  });

  it("honours a parameter or scope the body names itself", () => {
    expect(reshapeError(400, { error: { code: "bad_request", message: "Invalid.", field: "to" } }).field).toBe("to");
    expect(
      reshapeError(403, { ok: false, error: "scope_denied", message: "Forbidden.", scope: "locations" }).scope,
    ).toBe("locations");
  });

  it("never throws, even on a body that throws while being read", () => {
    const body = {};
    Object.defineProperty(body, "error", {
      enumerable: true,
      get: () => {
        throw new TypeError("boom");
      },
    });
    expect(reshapeError(500, body)).toEqual({
      code: "server_error",
      message: "The Fleet Fuel API failed on its side.",
    });
  });
});
