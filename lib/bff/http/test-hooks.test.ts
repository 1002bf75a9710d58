import { describe, expect, it } from "vitest";

import { parseConfig } from "../platform/config";
import { sameToken, testHooksAllowed } from "./test-hooks";

const TOKEN = "test-hooks-token-0123456789abcdef";
const LONG = "a-session-password-of-at-least-32-characters";

describe("test hooks gate", () => {
  const request = (token: string | null) =>
    new Request("http://127.0.0.1:3000/api/test-hooks/clock", {
      method: "POST",
      headers: token === null ? {} : { "x-test-hooks-token": token },
    });
  const config = parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, BFF_TEST_HOOKS: TOKEN });

  it("lets through only the exact token, when BFF_TEST_HOOKS is set and the upstream is the sandbox", () => {
    expect(testHooksAllowed(request(TOKEN), config)).toBe(true);
    expect(testHooksAllowed(request(null), config)).toBe(false);
    expect(testHooksAllowed(request(""), config)).toBe(false);
    expect(testHooksAllowed(request(`${TOKEN.slice(0, -1)}x`), config)).toBe(false); // same length, last character differs
    expect(testHooksAllowed(request(TOKEN.slice(0, -1)), config)).toBe(false); // a prefix
    expect(testHooksAllowed(request(`${TOKEN}x`), config)).toBe(false);
  });

  it("is closed without BFF_TEST_HOOKS, and whenever the upstream is not the sandbox (even if a config got that far)", () => {
    expect(testHooksAllowed(request(TOKEN), parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG }))).toBe(false);
    expect(testHooksAllowed(request(TOKEN), { ...config, upstream: { ...config.upstream, isSandbox: false } })).toBe(
      false,
    );
    expect(() =>
      parseConfig({
        FLEET_API_BASE_URL: "https://api.example.com/api/v1",
        SESSION_SECRET: LONG,
        BFF_TEST_HOOKS: TOKEN,
      }),
    ).toThrow(/BFF_TEST_HOOKS may only be enabled against the sandbox/);
    // A loopback upstream is not enough (an egress proxy to the real provider is loopback too): SANDBOX=1 is.
    expect(() =>
      parseConfig({
        FLEET_API_BASE_URL: "http://127.0.0.1:8443/api/v1",
        FLEET_API_ALLOW_INSECURE_HTTP: "true",
        SESSION_SECRET: LONG,
        BFF_TEST_HOOKS: TOKEN,
      }),
    ).toThrow(/BFF_TEST_HOOKS may only be enabled against the sandbox/);
  });

  it("compares tokens of any length without throwing (timingSafeEqual needs equal lengths: digests are compared)", () => {
    expect(sameToken("a", "a")).toBe(true);
    expect(sameToken("a", "a".repeat(1000))).toBe(false);
    expect(sameToken("é", "é")).toBe(true);
    expect(sameToken(null, "")).toBe(false);
  });
});
