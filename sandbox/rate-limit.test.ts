import { afterEach, describe, expect, it } from "vitest";
import { PROFILES } from "./config";
import { FixedWindowLimiter } from "./http/rate-limit";
import { ApiError } from "./http/errors";
import { client, errorCode, startTestSandbox, type TestSandbox } from "./test/harness";

describe("FixedWindowLimiter", () => {
  it("allows the budget per window, then 429 with Retry-After counting down to the reset", () => {
    let now = 120_000; // a window boundary
    const limiter = new FixedWindowLimiter(3, 60, () => now);
    for (let i = 0; i < 3; i++) limiter.take("k");
    now += 15_500;
    let caught: unknown;
    try {
      limiter.take("k");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toBe(429);
    expect((caught as ApiError).headers["Retry-After"]).toBe("45"); // 44.5 s left, rounded up
    limiter.take("other-key"); // budgets are per key
    now = 179_999;
    expect(() => { limiter.take("k"); }).toThrow(ApiError);
    try {
      limiter.take("k");
    } catch (error) {
      expect((error as ApiError).headers["Retry-After"]).toBe("1"); // never 0
    }
    now = 180_000;
    for (let i = 0; i < 3; i++) limiter.take("k");
    expect(() => { limiter.take("k"); }).toThrow(ApiError);
  });
});

describe.each(PROFILES)("request budget over HTTP (%s profile)", (profile) => {
  let sb: TestSandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it("defaults to the profile's budget (60 / 120 per 60 s)", async () => {
    sb = await startTestSandbox({ profile });
    expect(sb.config.budget).toBe(profile === "primary" ? 60 : 120);
    expect(sb.config.windowSeconds).toBe(60);
  });

  it("answers 429 rate_limited with Retry-After once a key's budget is spent, then recovers at the window's end", async () => {
    sb = await startTestSandbox({ profile, budget: 5 });
    sb.clock.ms = Math.ceil(sb.clock.ms / 60_000) * 60_000 + 10_000; // 10 s into a window
    const api = client(sb.baseUrl);
    const token = await api.token("demo-full"); // POST /auth counts too: 1
    for (let i = 0; i < 4; i++) expect((await api.get("/locations?limit=1", token)).status).toBe(200);
    const limited = await api.get("/locations?limit=1", token);
    expect(limited.status).toBe(429);
    expect(errorCode(limited.body)).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBe("50");
    // Another key has its own budget.
    const other = await api.token("other-full");
    expect((await api.get("/account-details", other)).status).toBe(200);
    sb.clock.advance(50_000);
    expect((await api.get("/locations?limit=1", token)).status).toBe(200);
  });

  it("honours --window-seconds", async () => {
    sb = await startTestSandbox({ profile, budget: 2, windowSeconds: 10 });
    sb.clock.ms = Math.ceil(sb.clock.ms / 10_000) * 10_000;
    const api = client(sb.baseUrl);
    const token = await api.token();
    expect((await api.get("/account-details", token)).status).toBe(200);
    const limited = await api.get("/account-details", token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("10");
  });
});
