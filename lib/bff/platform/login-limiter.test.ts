import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { setClockOffset } from "./clock";
import { clientAddress, keyWaitAfter, loginWaitMs, recordLoginFailure, recordLoginSuccess } from "./login-limiter";

describe("clientAddress", () => {
  const headers = (xff: string) => new Headers({ "x-forwarded-for": xff });

  it("takes the right-most X-Forwarded-For hop (what our proxy appended), never the client-controlled first one", () => {
    expect(clientAddress(headers("203.0.113.9, 198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientAddress(headers("1.2.3.4,5.6.7.8 , 192.0.2.1"), true)).toBe("192.0.2.1");
    expect(clientAddress(headers("192.0.2.1"), true)).toBe("192.0.2.1");
  });

  it("knows no address without TRUST_PROXY, or without the header", () => {
    expect(clientAddress(headers("198.51.100.7"), false)).toBeNull();
    expect(clientAddress(new Headers(), true)).toBeNull();
  });
});

describe("the per-key-id wait", () => {
  // The BFF's clock (lib/bff/platform/clock.ts) reads Date.now(): frozen here so the waits are exact.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-06-15T12:00:00Z") });
  });
  afterEach(() => {
    setClockOffset(0);
    vi.useRealTimers();
  });

  it("doubles with each consecutive failure past the first few, up to 15 minutes", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(keyWaitAfter)).toEqual([0, 0, 0, 5_000, 10_000, 20_000, 40_000]);
    expect(keyWaitAfter(30)).toBe(15 * 60_000);
  });

  it("counts consecutive failures only: a success starts the count again", () => {
    const keyId = `ffk_limiter-${String(Math.random())}`;
    for (let i = 0; i < 3; i++) recordLoginFailure(keyId, null);
    expect(loginWaitMs(keyId, null)).toBe(5_000);
    recordLoginFailure(keyId, null);
    expect(loginWaitMs(keyId, null)).toBe(10_000);
    setClockOffset(10_000);
    expect(loginWaitMs(keyId, null)).toBe(0); // waited out
    recordLoginSuccess(keyId);
    recordLoginFailure(keyId, null);
    expect(loginWaitMs(keyId, null)).toBe(0); // one typo after a success: no wait
  });

  it("limits one client address across key ids (behind a trusted proxy)", () => {
    const address = `198.51.100.${String(Math.floor(Math.random() * 200))}`;
    for (let i = 0; i < 10; i++) recordLoginFailure(`ffk_addr-${String(i)}-${String(Math.random())}`, address);
    expect(loginWaitMs("ffk_someone-else", address)).toBeGreaterThan(0);
    expect(loginWaitMs("ffk_someone-else", "198.51.100.254")).toBe(0);
  });
});
