import { describe, expect, it } from "vitest";

import { MINUTE, PROFILES, TEST_HOOKS_TOKEN, upstreamRequests, useBffStack } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf } from "@/test/browser";

// The BFF over real HTTP (`next start` of the built app, the sandbox as a separate process): sessions, sign-in,
// CSRF, the test clock hook, logout, expiry and the throttling of failed sign-ins.

describe.each(PROFILES)("the BFF over HTTP (%s profile)", (profile) => {
  const bff = useBffStack(profile);
  const { browser, loggedIn, setClock } = bff;

  describe("session", () => {
    it("logs in with a key pair and seals it in a __Host- cookie (HttpOnly, Secure, SameSite=Lax, Path=/, no Domain, < 4 KB)", async () => {
      const b = browser();
      const res = await b.login(bff.upstream.keys["demo-full"].keyId, bff.upstream.keys["demo-full"].secret);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ customer: { name: "Prairie Freight Lines" } });
      const cookie = res.setCookie.find((c) => c.startsWith("__Host-ffd_session="));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).toMatch(/; Path=\//i);
      expect(cookie).not.toMatch(/Domain=/i);
      expect(cookie?.length).toBeLessThan(4096);
      const me = await b.fetch("/api/session");
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ customer: { name: "Prairie Freight Lines" } });
    });

    it.each([
      [
        "a wrong secret",
        () => ({ keyId: bff.upstream.keys["demo-full"].keyId, secret: "ffs_wrong" }),
        401,
        "invalid_credentials",
      ],
      ["a revoked key", () => bff.upstream.keys["demo-revoked"], 401, "invalid_credentials"],
    ])("refuses %s with a clear 401", async (_what, pair, status, code) => {
      const { keyId, secret } = pair();
      const res = await browser().login(keyId, secret);
      expect(res.status).toBe(status);
      expect(errorCodeOf(res.body)).toBe(code);
      expect(errorMessageOf(res.body)).toMatch(/key id or secret is wrong|revoked/);
      expect(res.setCookie).toHaveLength(0);
    });

    it("signs in with the demo key the server holds ({demo: true}); the login page shows its id, never its secret", async () => {
      const b = browser();
      const res = await b.fetch("/api/session", { method: "POST", json: { demo: true } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ customer: { name: "Prairie Freight Lines" } });
      expect(res.text).not.toContain(bff.upstream.keys["demo-full"].secret);
      expect((await b.fetch("/api/session")).status).toBe(200);
      const page = await browser().fetch("/login");
      expect(page.text).toContain(bff.upstream.keys["demo-full"].keyId);
      expect(page.text).not.toContain(bff.upstream.keys["demo-full"].secret);
    });

    it.each([
      ["demo: false", { demo: false }, /demo must be true/],
      [
        "demo with a key pair",
        { demo: true, keyId: "ffk_x", secret: "x" },
        /either \{demo: true\} or \{keyId, secret\}/,
      ],
    ])("answers a demo sign-in with %s with a 400 naming the problem", async (_what, json, message) => {
      const b = browser();
      const res = await b.fetch("/api/session", { method: "POST", json });
      expect(res.status).toBe(400);
      expect(errorMessageOf(res.body)).toMatch(message);
      expect(b.cookie).toBeUndefined();
    });

    it.each([
      ["a missing secret", { json: { keyId: "ffk_x" } }, 400, /secret is required/],
      ["a missing keyId", { json: { secret: "x" } }, 400, /keyId is required/],
      ["a number as secret", { json: { keyId: "ffk_x", secret: 5 } }, 400, /secret must be a string/],
      ["an unknown field", { json: { keyId: "ffk_x", secret: "x", admin: true } }, 400, /Unknown field: admin/],
      [
        "non-JSON text",
        { body: "keyId=x&secret=y", headers: { "Content-Type": "application/json" } },
        400,
        /not valid JSON/,
      ],
      [
        "a form post",
        { body: "keyId=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
        400,
        /as JSON/,
      ],
      ["a huge body", { json: { keyId: "ffk_x", secret: "x".repeat(10_000) } }, 413, /too large/],
    ])("answers %s with a 4xx naming the problem", async (_what, init, status, message) => {
      const res = await browser().fetch("/api/session", { method: "POST", ...init });
      expect(res.status).toBe(status);
      expect(errorMessageOf(res.body)).toMatch(message);
    });

    it.each([
      ["no X-Requested-With header", { headers: { "X-Requested-With": null } }],
      ["a wrong X-Requested-With header", { headers: { "X-Requested-With": "fetch" } }],
      ["no Origin header", { headers: { Origin: null } }],
      ["a same-site (not same-origin) Sec-Fetch-Site", { headers: { "Sec-Fetch-Site": "same-site" } }],
      ["a foreign Origin", { headers: { Origin: "https://evil.example" } }],
      ["a null Origin", { headers: { Origin: "null" } }],
      ["a cross-site Sec-Fetch-Site", { headers: { "Sec-Fetch-Site": "cross-site" } }],
    ])("rejects a login with %s (CSRF)", async (_what, init) => {
      const b = browser();
      const res = await b.fetch("/api/session", {
        method: "POST",
        json: { keyId: bff.upstream.keys["demo-full"].keyId, secret: bff.upstream.keys["demo-full"].secret },
        ...init,
      });
      expect(res.status).toBe(403);
      expect(errorCodeOf(res.body)).toBe("csrf_rejected");
      expect(b.cookie).toBeUndefined();
    });

    it("refuses a chunked login body over the limit without reading it all", async () => {
      const chunk = new TextEncoder().encode("x".repeat(1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 64) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await browser().fetch("/api/session", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status).toBe(413);
    });

    it("refuses a data request another site's page made (Sec-Fetch-Site: cross-site)", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/transactions/export?format=csv", { headers: { "Sec-Fetch-Site": "cross-site" } });
      expect(res.status).toBe(403);
      expect(errorCodeOf(res.body)).toBe("csrf_rejected");
    });

    it("refuses a data request from a sibling subdomain (same-site) or with an unknown Sec-Fetch-Site; accepts same-origin and none", async () => {
      const b = await loggedIn();
      for (const site of ["same-site", "websocket"]) {
        const res = await b.fetch("/api/account", { headers: { "Sec-Fetch-Site": site } });
        expect(res.status, site).toBe(403);
        expect(errorCodeOf(res.body)).toBe("csrf_rejected");
        expect(errorMessageOf(res.body)).toMatch(/data requests are answered only for the dashboard's own pages/);
      }
      for (const site of ["same-origin", "none"])
        expect((await b.fetch("/api/account", { headers: { "Sec-Fetch-Site": site } })).status, site).toBe(200);
    });

    it("the test clock hook is not there without its token, nor with a wrong one", async () => {
      const res = await fetch(`${bff.app.origin}/api/test-hooks/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ offsetMs: 1 }),
      });
      expect(res.status).toBe(404);
      for (const token of [`${TEST_HOOKS_TOKEN.slice(0, -1)}x`, TEST_HOOKS_TOKEN.slice(0, 8), `${TEST_HOOKS_TOKEN}x`]) {
        const wrong = await fetch(`${bff.app.origin}/api/test-hooks/clock`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": token },
          body: JSON.stringify({ offsetMs: 1 }),
        });
        expect(wrong.status, token).toBe(404);
      }
    });

    it("a login over a running session ends the old one", async () => {
      const b = await loggedIn();
      const old = b.cookie;
      expect((await b.login(bff.upstream.keys["demo-full"].keyId, bff.upstream.keys["demo-full"].secret)).status).toBe(
        200,
      );
      const thief = browser();
      thief.cookie = old;
      expect((await thief.fetch("/api/session")).status).toBe(401);
    });

    it("rejects a cross-site logout (CSRF) and keeps the session", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/session", { method: "DELETE", headers: { Origin: "https://evil.example" } });
      expect(res.status).toBe(403);
      expect((await b.fetch("/api/session")).status).toBe(200);
    });

    it("ends the session server-side on logout: a copied cookie replayed afterwards gets 401", async () => {
      const b = await loggedIn();
      const copied = b.cookie;
      expect((await b.fetch("/api/session", { method: "DELETE" })).status).toBe(204);
      const thief = browser();
      thief.cookie = copied;
      const replay = await thief.fetch("/api/account");
      expect(replay.status).toBe(401);
      expect(errorCodeOf(replay.body)).toBe("session_ended");
    });

    it("answers 401 without a cookie and for a tampered cookie", async () => {
      expect((await browser().fetch("/api/account")).status).toBe(401);
      const b = await loggedIn();
      const [name, value = ""] = (b.cookie ?? "").split("=");
      b.cookie = `${name ?? ""}=${value.slice(0, -4)}${value.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
      const res = await b.fetch("/api/account");
      expect(res.status).toBe(401);
    });

    it("expires after 30 idle minutes, and rolls while in use", async () => {
      const b = await loggedIn();
      try {
        await setClock(20 * MINUTE);
        expect((await b.fetch("/api/session")).status).toBe(200); // rolls the idle timeout
        await setClock(45 * MINUTE);
        expect((await b.fetch("/api/session")).status).toBe(200);
        await setClock(76 * MINUTE);
        const res = await b.fetch("/api/session");
        expect(res.status).toBe(401);
        expect(errorMessageOf(res.body)).toMatch(/inactivity/);
      } finally {
        await setClock(0);
      }
    });

    it("expires 12 hours after login however active it was", async () => {
      const b = await loggedIn();
      try {
        for (let t = 20; t < 12 * 60; t += 20) {
          await setClock(t * MINUTE);
          expect((await b.fetch("/api/session")).status).toBe(200);
        }
        await setClock(12 * 60 * MINUTE + MINUTE);
        const res = await b.fetch("/api/session");
        expect(res.status).toBe(401);
        expect(errorMessageOf(res.body)).toMatch(/maximum length/);
      } finally {
        await setClock(0);
      }
    });
  });

  it("throttles failed sign-ins itself, before asking the upstream again", async () => {
    const keyId = "ffk_000000000000000000000042";
    let last = await browser().login(keyId, "ffs_guess-0");
    for (let i = 1; i < 12 && last.status === 401; i++) last = await browser().login(keyId, `ffs_guess-${String(i)}`);
    expect(last.status).toBe(429);
    expect(Number(last.res.headers.get("retry-after"))).toBeGreaterThan(0);
    const before = upstreamRequests(bff.upstream).length;
    const again = await browser().login(keyId, "ffs_guess-again");
    expect(again.status).toBe(429);
    expect(upstreamRequests(bff.upstream).length).toBe(before); // the upstream was not asked
  });
});
