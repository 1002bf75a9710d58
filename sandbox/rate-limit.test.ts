import { afterEach, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { ApiError } from "./http/errors";
import { FailedAuthLimiter, FixedWindowLimiter } from "./http/rate-limit";
import { schemasFor } from "./routes/schemas";
import { basic, client, creds, errorCode, startTestSandbox, type TestSandbox } from "./test/harness";

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

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
    expect(() => {
      limiter.take("k");
    }).toThrow(ApiError);
    try {
      limiter.take("k");
    } catch (error) {
      expect((error as ApiError).headers["Retry-After"]).toBe("1"); // never 0
    }
    now = 180_000;
    for (let i = 0; i < 3; i++) limiter.take("k");
    expect(() => {
      limiter.take("k");
    }).toThrow(ApiError);
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

describe("FailedAuthLimiter", () => {
  it("allows the budget of failures per address per window, then 429 before any check, until the window ends", () => {
    let now = 120_000; // a window boundary
    const limiter = new FailedAuthLimiter(2, 60, () => now);
    limiter.begin("10.0.0.1")(false);
    limiter.begin("10.0.0.1")(true); // a success is not a failure
    limiter.begin("10.0.0.1")(false);
    now += 15_500;
    const over = thrown(() => limiter.begin("10.0.0.1"));
    expect(over.status).toBe(429);
    expect(over.code).toBe("rate_limited");
    expect(over.headers["Retry-After"]).toBe("45");
    limiter.begin("10.0.0.2")(true); // per address
    now = 180_000;
    limiter.begin("10.0.0.1")(false);
  });

  it("counts checks still running, so parallel guesses cannot pass the limit; a success releases its place", () => {
    const limiter = new FailedAuthLimiter(2, 60, () => 0);
    const first = limiter.begin("a");
    const second = limiter.begin("a");
    const busy = thrown(() => limiter.begin("a"));
    expect(busy.status).toBe(429);
    expect(busy.headers["Retry-After"]).toBe("1");
    first(true);
    second(true);
    second(false); // settling twice counts once
    limiter.begin("a")(false);
    limiter.begin("a")(false);
    expect(thrown(() => limiter.begin("a")).headers["Retry-After"]).toBe("60");
  });
});

describe.each(PROFILES)("failed key-pair checks per client address (%s profile)", (profile) => {
  let sb: TestSandbox | undefined;
  const schemas = schemasFor(profile);
  const failCode = profile === "primary" ? "unauthenticated" : "invalid_credentials";
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it("after 20 failures (the default) from an address, POST /auth and Basic are 429 before the secret is checked; the key's budget is not charged", async () => {
    sb = await startTestSandbox({ profile, budget: 3 });
    expect(sb.config.failedAuthBudget).toBe(20);
    sb.clock.ms = Math.ceil(sb.clock.ms / 60_000) * 60_000 + 10_000; // 10 s into a window
    const api = client(sb.baseUrl);
    const full = creds("demo-full");
    const failures = [
      ...Array.from({ length: 12 }, (_, i) => () => api.auth(full.keyId, `ffs_guess${String(i)}`)),
      ...Array.from({ length: 4 }, () => () => api.auth("ffk_000000000000000000000000", full.secret)),
      () => api.auth(creds("demo-revoked").keyId, creds("demo-revoked").secret),
      ...Array.from({ length: 2 }, () => () => api.get("/account-details", basic(full.keyId, "ffs_wrong"))),
    ];
    for (const attempt of failures) {
      const res = await attempt();
      expect(res.status).toBe(401);
      expect(errorCode(res.body)).toBe(failCode);
    }
    // 19 failures: the key's own budget (3) is untouched, so the real pair still gets a token and a GET.
    const auth = await api.auth(full.keyId, full.secret);
    expect(auth.status).toBe(200);
    const token = auth.body.access_token as string;
    expect((await api.get("/account-details", token)).status).toBe(200);
    expect((await api.get("/account-details", basic(full.keyId, "ffs_wrong"))).status).toBe(401); // the 20th

    for (const res of [
      await api.auth(full.keyId, "ffs_guess-more"),
      await api.auth(full.keyId, full.secret), // refused before the secret is checked, right or wrong
      await api.get("/account-details", basic(full.keyId, full.secret)),
    ]) {
      expect(res.status).toBe(429);
      expect(errorCode(res.body)).toBe("rate_limited");
      expect(res.headers.get("retry-after")).toBe("50");
      schemas.ErrorBody.parse(res.body);
    }
    // A token already earned is no key-pair check: it keeps working (the key's 3rd request).
    expect((await api.get("/account-details", token)).status).toBe(200);

    sb.clock.advance(50_000);
    expect((await api.auth(full.keyId, full.secret)).status).toBe(200);
  });

  it("counts checks still running: a burst of parallel guesses gets no more than the budget of 401s", async () => {
    sb = await startTestSandbox({ profile, failedAuthBudget: 3 });
    const api = client(sb.baseUrl);
    const { keyId } = creds("demo-full");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => api.auth(keyId, `ffs_burst${String(i)}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    expect((await api.auth(keyId, creds("demo-full").secret)).status).toBe(429);
  });
});
