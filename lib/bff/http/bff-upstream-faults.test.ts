import { describe, expect, it } from "vitest";

import { startApp } from "@/test/app-process";
import { SESSION_SECRET } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf, TestBrowser } from "@/test/browser";
import { startSandboxProcess } from "@/test/sandbox-process";

// The BFF over real HTTP when the upstream rate-limits or fails, and when its own configuration is bad: each test
// starts the sandbox and the app it needs.

describe("the BFF when the upstream says 429", () => {
  it("answers 429 with Retry-After and a message saying when to retry", async () => {
    // A one-hour window makes Retry-After long, so the interactive request reports it instead of waiting.
    const upstream = await startSandboxProcess({ args: ["--budget", "4", "--window-seconds", "3600"] });
    const app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "1000" });
    try {
      const b = new TestBrowser(app.origin);
      expect((await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret)).status).toBe(200);
      let res = await b.fetch("/api/transactions?limit=1");
      for (let i = 0; i < 5 && res.status === 200; i++)
        res = await b.fetch(`/api/transactions?limit=1&page=${String(i + 2)}`);
      expect(res.status).toBe(429);
      expect(Number(res.res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(errorMessageOf(res.body)).toMatch(/asked us to wait \d+ s/);
    } finally {
      await app.stop();
      await upstream.stop();
    }
  }, 240_000);
});

describe("the BFF when the upstream fails", () => {
  it("answers 502 with a calm message after the client's retries, never a stack trace", async () => {
    const upstream = await startSandboxProcess({ args: ["--fault-error-rate", "1"] });
    const app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET });
    try {
      const res = await new TestBrowser(app.origin).login(
        upstream.keys["demo-full"].keyId,
        upstream.keys["demo-full"].secret,
      );
      expect(res.status).toBe(502);
      expect(errorCodeOf(res.body)).toBe("upstream_unavailable");
      expect(errorMessageOf(res.body)).toMatch(/not answering/);
      expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
      // This app was started without DEMO_KEY_*: no demo key on offer, on the page or through the API.
      const demo = await new TestBrowser(app.origin).fetch("/api/session", { method: "POST", json: { demo: true } });
      expect(demo.status).toBe(400);
      expect(errorMessageOf(demo.body)).toMatch(/No demo key is offered here/);
      expect((await new TestBrowser(app.origin).fetch("/login")).text).not.toContain("Sign in with the demo key");
    } finally {
      await app.stop();
      await upstream.stop();
    }
  }, 120_000);
});

describe("the BFF's configuration", () => {
  it("a bad value stops the start, naming every problem", async () => {
    await expect(
      startApp({ FLEET_API_BUDGET: "lots", SESSION_IDLE_MINUTES: "0", SESSION_SECRET: "short" }),
    ).rejects.toThrow(/FLEET_API_BUDGET[\s\S]*SESSION_IDLE_MINUTES|SESSION_IDLE_MINUTES[\s\S]*FLEET_API_BUDGET/);
  }, 120_000);
});
