import { once } from "node:events";
import { type ClientRequest, get, type IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";

import Database from "better-sqlite3";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";
import { errorCodeOf, errorMessageOf, type Recorded, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// The BFF over real HTTP: `next start` of the built app, talking to the sandbox as a separate process.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
const TEST_HOOKS_TOKEN = "test-hooks-token-0123456789abcdef";
const MINUTE = 60_000;

/** Requests the sandbox logged (with log: true), as "GET /api/v1/…" paths. */
const upstreamRequests = (sb: SandboxProcess) =>
  [...sb.output().matchAll(/\[sandbox\] (GET|POST) (\/api\/v1\/\S*) (\d{3})/g)].map(
    (m) => `${m[1] ?? ""} ${m[2] ?? ""} ${m[3] ?? ""}`,
  );
/** Upstream transaction list requests (the sandbox logs paths without their query). */
const isListCall = (r: string) => /^GET \/api\/v1\/transactions \d{3}$/.test(r);

describe.each(["primary", "alternative"] as const)("the BFF over HTTP (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  const recorded: Recorded[] = [];
  const browser = () => new TestBrowser(app.origin, recorded);
  const loggedIn = async (label: keyof SandboxProcess["keys"] = "demo-full") => {
    const b = browser();
    const res = await b.login(upstream.keys[label].keyId, upstream.keys[label].secret);
    expect(res.status).toBe(200);
    return b;
  };
  const setClock = async (offsetMs: number) => {
    const res = await fetch(`${app.origin}/api/test-hooks/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Test-Hooks-Token": TEST_HOOKS_TOKEN },
      body: JSON.stringify({ offsetMs }),
    });
    expect(res.status).toBe(204);
  };

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    const demo = upstream.keys["demo-full"];
    app = await startApp({
      FLEET_API_BASE_URL: upstream.baseUrl,
      SESSION_SECRET,
      BFF_TEST_HOOKS: TEST_HOOKS_TOKEN,
      FLEET_API_BUDGET: "100000",
      DEMO_KEY_ID: demo.keyId,
      DEMO_KEY_SECRET: demo.secret,
    });
  }, 240_000);
  afterAll(async () => {
    // Both guarded: when a start failed, the other process must still be stopped.
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  describe("session", () => {
    it("logs in with a key pair and seals it in a __Host- cookie (HttpOnly, Secure, SameSite=Lax, Path=/, no Domain, < 4 KB)", async () => {
      const b = browser();
      const res = await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
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
        () => ({ keyId: upstream.keys["demo-full"].keyId, secret: "ffs_wrong" }),
        401,
        "invalid_credentials",
      ],
      ["a revoked key", () => upstream.keys["demo-revoked"], 401, "invalid_credentials"],
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
      expect(res.text).not.toContain(upstream.keys["demo-full"].secret);
      expect((await b.fetch("/api/session")).status).toBe(200);
      const page = await browser().fetch("/login");
      expect(page.text).toContain(upstream.keys["demo-full"].keyId);
      expect(page.text).not.toContain(upstream.keys["demo-full"].secret);
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
        json: { keyId: upstream.keys["demo-full"].keyId, secret: upstream.keys["demo-full"].secret },
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
      const res = await fetch(`${app.origin}/api/test-hooks/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ offsetMs: 1 }),
      });
      expect(res.status).toBe(404);
      for (const token of [`${TEST_HOOKS_TOKEN.slice(0, -1)}x`, TEST_HOOKS_TOKEN.slice(0, 8), `${TEST_HOOKS_TOKEN}x`]) {
        const wrong = await fetch(`${app.origin}/api/test-hooks/clock`, {
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
      expect((await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret)).status).toBe(200);
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

  describe("data routes", () => {
    it("GET /api/account: the account with 30-day totals (the upstream's, or computed when its shape has none)", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/account");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: "Prairie Freight Lines",
        totals30d: { source: profile === "primary" ? "upstream" : "computed" },
      });
    });

    it("the overview's account reuses the sign-in's account reply: one GET /account-details for both", async () => {
      const accountCalls = (from: number) =>
        upstreamRequests(upstream)
          .slice(from)
          .filter((r) => r.startsWith("GET /api/v1/account-details"));
      // An hour on: every answer cached by earlier tests has expired, so the sign-in must ask the upstream itself.
      await setClock(60 * MINUTE);
      try {
        const before = upstreamRequests(upstream).length;
        const b = await loggedIn();
        expect(accountCalls(before)).toHaveLength(1);
        const afterLogin = upstreamRequests(upstream).length;
        const res = await b.fetch("/api/account");
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ name: "Prairie Freight Lines" });
        expect(accountCalls(afterLogin)).toHaveLength(0);
        // Past the account's TTL it is asked again.
        await setClock(62 * MINUTE);
        const later = upstreamRequests(upstream).length;
        expect((await b.fetch("/api/account")).status).toBe(200);
        expect(accountCalls(later)).toHaveLength(1);
      } finally {
        await setClock(0);
      }
    });

    it("a reload within the cache TTL costs no upstream call", async () => {
      const b = await loggedIn();
      await b.fetch("/api/account");
      await b.fetch("/api/transactions?limit=25");
      const before = upstreamRequests(upstream).length;
      await b.fetch("/api/account");
      await b.fetch("/api/transactions?limit=25");
      expect(upstreamRequests(upstream).length).toBe(before);
    });

    it("identical concurrent requests for one key share one upstream call", async () => {
      const b = await loggedIn();
      const before = upstreamRequests(upstream).filter(isListCall).length;
      const results = await Promise.all(Array.from({ length: 6 }, () => b.fetch("/api/transactions?limit=7&page=9")));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(upstreamRequests(upstream).filter(isListCall).length - before).toBe(1);
    });

    it("never shows one customer's data to another, cached or not", async () => {
      const pfl = await loggedIn();
      const mine = (await pfl.fetch("/api/transactions?limit=3")).body as { items: { id: string }[] };
      const id = mine.items[0]?.id ?? "";
      expect((await pfl.fetch(`/api/transactions/${id}`)).status).toBe(200); // now cached for PFL
      const chi = await loggedIn("other-full");
      expect((await chi.fetch(`/api/transactions/${id}`)).status).toBe(404);
      const theirs = (await chi.fetch("/api/transactions?limit=3")).body as { items: { id: string }[] };
      expect(theirs.items.map((t) => t.id)).not.toContain(id);
      expect(((await chi.fetch("/api/account")).body as { name: string }).name).toBe("Coastal Haulers Inc.");
    });

    it("GET /api/transactions: filters and pages in the model's shape", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/transactions?from=2026-05-01&to=2026-05-31&status=completed&limit=200");
      expect(res.status).toBe(200);
      const page = res.body as { total: number; items: { at: string; status: string; amount: string }[] };
      expect(page.total).toBeGreaterThan(0);
      for (const t of page.items) {
        expect(t.status).toBe("completed");
        expect(t.at >= "2026-05-01" && t.at < "2026-06-01").toBe(true);
        expect(t.amount).toMatch(/^-?\d+\.\d{2}$/);
      }
    });

    it("search finds a transaction by its reference (transaction_id), which the upstream's search does not match, reading few pages", async () => {
      const b = await loggedIn();
      type ListBody = { total: number; pages: number; items: { id: string; reference: string; status: string }[] };
      // A reference deep in the list (3,000 transactions: 15 pages of 200), not on page 1 nor in the middle.
      const { pages } = (await b.fetch("/api/transactions?limit=200")).body as ListBody;
      expect(pages).toBeGreaterThanOrEqual(10);
      const deep = (await b.fetch(`/api/transactions?page=${String(Math.ceil(pages * 0.7))}&limit=200`))
        .body as ListBody;
      const wanted = deep.items[117];
      expect(wanted).toBeDefined();
      if (wanted === undefined) return;
      expect(wanted.reference).toMatch(/^[A-Z]{2}\d{10}$/);
      // The upstream itself does not find it (the reason for the lookup).
      const direct = await fetch(`${upstream.baseUrl}/transactions?search=${wanted.reference}`, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${upstream.keys["demo-full"].keyId}:${upstream.keys["demo-full"].secret}`).toString("base64")}`,
        },
      });
      const directBody = (await direct.json()) as { data?: { total: number }; total?: number };
      expect(directBody.data?.total ?? directBody.total).toBe(0);

      const before = upstreamRequests(upstream).filter(isListCall).length;
      const found = (await b.fetch(`/api/transactions?search=${wanted.reference.toLowerCase()}&limit=50`))
        .body as ListBody;
      expect(found.total).toBe(1);
      expect(found.items.map((t) => t.id)).toEqual([wanted.id]);
      // Bisecting the newest-first pages on the references' order: page 1 and about log2(pages) more, not a walk.
      const spent = upstreamRequests(upstream).filter(isListCall).length - before;
      expect(spent).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(pages)));
      // The list's other filters still apply: the reference with another status is not there.
      const otherStatus = wanted.status === "failed" ? "completed" : "failed";
      expect(
        ((await b.fetch(`/api/transactions?search=${wanted.reference}&status=${otherStatus}`)).body as ListBody).total,
      ).toBe(0);
      // A reference nobody has: an empty list, at the same small cost.
      const beforeMissing = upstreamRequests(upstream).filter(isListCall).length;
      expect(((await b.fetch("/api/transactions?search=FF0000000001")).body as ListBody).total).toBe(0);
      expect(upstreamRequests(upstream).filter(isListCall).length - beforeMissing).toBeLessThanOrEqual(
        2 + Math.ceil(Math.log2(pages)),
      );
      // The export of that search holds that one transaction, as the list shows it.
      const csv = await b.fetch(`/api/transactions/export?format=csv&search=${wanted.reference}`);
      expect(csv.status).toBe(200);
      const lines = csv.text
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter((l) => l !== "");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(wanted.reference);
      // And its totals are that transaction's.
      const totals = (await b.fetch(`/api/transactions/totals?search=${wanted.reference}`)).body as {
        state: string;
        transactions: number;
      };
      expect(totals).toMatchObject({ state: "summed", transactions: 1 });
    });

    it("GET /api/transactions/totals: the filtered set's count, gallons and amount, exact; too large a set is not walked", async () => {
      const b = await loggedIn();
      const filter = "from=2026-05-01&to=2026-05-31";
      type Row = { status: string; gallons: string; amount: string };
      const rows: Row[] = [];
      for (let page = 1; ; page++) {
        const body = (await b.fetch(`/api/transactions?${filter}&limit=200&page=${String(page)}`)).body as {
          pages: number;
          items: Row[];
        };
        rows.push(...body.items);
        if (page >= body.pages) break;
      }
      const minor = (value: string, digits: number) => {
        const [whole = "0", fraction = ""] = value.replace("-", "").split(".");
        const n = BigInt(whole + fraction.padEnd(digits, "0"));
        return value.startsWith("-") ? -n : n;
      };
      const show = (n: bigint, digits: number) => {
        const text = (n < 0n ? -n : n).toString().padStart(digits + 1, "0");
        return `${n < 0n ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
      };
      const charged = rows.filter((r) => r.status !== "failed");
      const res = await b.fetch(`/api/transactions/totals?${filter}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        state: "summed",
        transactions: rows.length,
        failed: rows.length - charged.length,
        gallons: show(
          charged.reduce((sum, r) => sum + minor(r.gallons, 3), 0n),
          3,
        ),
        amount: show(
          charged.reduce((sum, r) => sum + minor(r.amount, 2), 0n),
          2,
        ),
      });
      // With the status filter: only failed rows, which are not charged.
      const failed = (await b.fetch(`/api/transactions/totals?${filter}&status=failed`)).body;
      expect(failed).toEqual({
        state: "summed",
        transactions: rows.length - charged.length,
        failed: rows.length - charged.length,
        gallons: "0.000",
        amount: "0.00",
      });
      // No filter: the whole history (3,000 rows here) is walked and counted.
      const all = (await b.fetch("/api/transactions/totals")).body as { state: string; transactions: number };
      expect(all).toMatchObject({
        state: "summed",
        transactions: ((await b.fetch("/api/transactions?limit=1")).body as { total: number }).total,
      });
      // Bad input is a 400 naming it.
      const bad = await b.fetch("/api/transactions/totals?from=2026-05-02&to=2026-05-01");
      expect(bad.status).toBe(400);
      expect(errorMessageOf(bad.body)).toContain("from");
    });

    it.each([
      ["/api/transactions?limit=0", "limit"],
      ["/api/transactions?limit=201", "limit"],
      ["/api/transactions?page=abc", "page"],
      ["/api/transactions?from=2026-13-01", "from"],
      ["/api/transactions?from=2026-05-02&to=2026-05-01", "from"],
      ["/api/transactions?status=settled", "status"],
      ["/api/transactions?from=2026-05-01&tz=Mars%2FOlympus", "tz"],
      [`/api/transactions?search=${"x".repeat(101)}`, "search"],
      ["/api/transactions?search=%00", "search"],
      ["/api/transactions?sort=amount", "sort"],
      ["/api/transactions?page=1&page=2", "page"],
      ["/api/transactions/summary?from=2020-01-01&to=2026-01-01", "from"],
      ["/api/transactions/export?format=pdf", "format"],
      ["/api/transactions/export?format=csv&exportId=%3Cscript%3E", "exportId"],
      ["/api/transactions/export/progress", "exportId"],
      ["/api/locations?limit=501", "limit"],
      ["/api/locations?state=XYZ", "state"],
      ["/api/locations?brand=Shell%20Oil", "brand"],
      ["/api/locations?all=yes", "all"],
    ])("answers 400 naming the parameter: %s", async (path, param) => {
      const b = await loggedIn();
      const res = await b.fetch(path);
      expect(res.status).toBe(400);
      expect(errorCodeOf(res.body)).toBe("bad_request");
      expect(errorMessageOf(res.body)).toContain(param);
    });

    it("keeps every id inside its own route: odd ids never reach another upstream path", async () => {
      const b = await loggedIn();
      const before = upstreamRequests(upstream).length;
      for (const id of [
        "..%2F..%2Faccount-details",
        "%2E%2E",
        "x%3Flimit%3D1",
        "x%23y",
        "a".repeat(300),
        "..",
        "%252F",
      ]) {
        const res = await b.fetch(`/api/transactions/${id}`);
        expect([400, 404, 308]).toContain(res.status); // 308: Next itself normalises the path, nothing is asked upstream
      }
      const made = upstreamRequests(upstream).slice(before);
      expect(made.filter((r) => !r.startsWith("GET /api/v1/transactions/"))).toEqual([]);
      const real = (await b.fetch("/api/transactions?limit=1")).body as { items: { id: string }[] };
      const detail = await b.fetch(`/api/transactions/${real.items[0]?.id ?? ""}`);
      expect(detail.status).toBe(200);
    });

    it("a key without the transactions scope gets 403 naming it, while its account still works", async () => {
      const b = await loggedIn("demo-no-transactions");
      const denied = await b.fetch("/api/transactions");
      expect(denied.status).toBe(403);
      expect(errorCodeOf(denied.body)).toBe("scope_denied");
      expect(errorMessageOf(denied.body)).toContain(profile === "primary" ? "read" : "transactions");
      expect((await b.fetch("/api/account")).status).toBe(200);
    });

    it("GET /api/transactions/summary: exact totals, a daily series and top lists", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/transactions/summary?from=2026-05-01&to=2026-05-31");
      expect(res.status).toBe(200);
      const s = res.body as {
        totals: { transactions: number; amount: string };
        daily: unknown[];
        topDrivers: unknown[];
      };
      expect(s.daily).toHaveLength(31);
      expect(s.totals.transactions).toBeGreaterThan(0);
      expect(s.topDrivers.length).toBeGreaterThan(0);
    });

    it("GET /api/locations: a page, the whole catalog (⌈stations/500⌉ upstream calls, then cached), one station", async () => {
      const b = await loggedIn();
      const page = await b.fetch("/api/locations?state=TX&limit=5");
      expect(page.status).toBe(200);
      const before = upstreamRequests(upstream).length;
      const all = await b.fetch("/api/locations?all=1");
      const items = (all.body as { items: { id: string }[] }).items;
      expect(items.length).toBeGreaterThan(100);
      const calls = upstreamRequests(upstream)
        .slice(before)
        .filter((r) => r.startsWith("GET /api/v1/locations"));
      expect(calls).toHaveLength(Math.ceil(items.length / 500));
      await b.fetch("/api/locations?all=1");
      expect(upstreamRequests(upstream).length).toBe(before + calls.length);
      // pack=gzip: the same catalog gzip-packed (the map page unpacks it with DecompressionStream), about 4× smaller.
      const packed = await b.fetch("/api/locations?all=1&pack=gzip", { raw: true });
      expect(packed.status).toBe(200);
      expect(packed.res.headers.get("content-type")).toBe("application/gzip");
      expect(packed.res.headers.get("x-packed-content-type")).toBe("application/json");
      const packedBytes = Buffer.from(await packed.res.arrayBuffer());
      expect(packedBytes.byteLength * 3).toBeLessThan(Buffer.byteLength(all.text));
      expect(JSON.parse(gunzipSync(packedBytes).toString("utf8"))).toEqual(all.body);
      for (const [query, message] of [
        ["pack=gzip&state=TX", /pack=gzip is only for the whole catalog \(all=1\)/],
        ["all=1&pack=br", /pack must be gzip/],
      ] as const) {
        const refused = await b.fetch(`/api/locations?${query}`);
        expect(refused.status, query).toBe(400);
        expect(errorMessageOf(refused.body)).toMatch(message);
      }
      const one = await b.fetch(`/api/locations/${items[0]?.id ?? ""}`);
      expect(one.status).toBe(200);
      expect((await b.fetch("/api/locations/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    });

    it("exports the filtered set as CSV: the column header is line 1, the file name says what it holds; progress is reported", async () => {
      const b = await loggedIn();
      const exportId = "test-export-0001";
      const res = await b.fetch(
        `/api/transactions/export?format=csv&status=completed&from=2026-05-01&to=2026-05-31&exportId=${exportId}`,
      );
      expect(res.status).toBe(200);
      expect(res.res.headers.get("content-type")).toMatch(/text\/csv/);
      const lines = res.text
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter((l) => l !== "");
      // Import tools read line 1 as the column names; the self-description (customer, filters, time, rows) is the file name.
      expect(lines[0]).toMatch(/^Date \(UTC\),Local offset,Reference,Status,/);
      const list = (await b.fetch("/api/transactions?status=completed&from=2026-05-01&to=2026-05-31&limit=1")).body as {
        total: number;
      };
      expect(res.res.headers.get("content-disposition")).toMatch(
        new RegExp(
          `attachment; filename="fleet-fuel-transactions_(PFL|prairie-freight-lines)_2026-05-01_to_2026-05-31_completed_\\d{4}-\\d{2}-\\d{2}T\\d{6}Z_${String(list.total)}-rows\\.csv"`,
        ),
      );
      expect(lines.length - 1).toBe(list.total);
      const progress = await b.fetch(`/api/transactions/export/progress?exportId=${exportId}`);
      expect(progress.body).toMatchObject({ state: "done", rowsDone: list.total, expectedRows: list.total });
      // What the page's time estimate rests on: rows per request and the key's budget as the BFF knows it.
      expect(progress.body).toMatchObject({
        rate: { rowsPerRequest: 200, requestsPerWindow: 100_000, windowSeconds: 60 },
      });
      expect((progress.body as { rate: { sentInWindow: number } }).rate.sentInWindow).toBeGreaterThan(0);
    });

    it("GET /api/transactions with tz: a zone's days exactly in both shapes (datetimes, or the covering UTC days trimmed), pages adding up", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/transactions?from=2026-05-10&to=2026-05-11&tz=America%2FLos_Angeles&limit=200");
      expect(res.status).toBe(200);
      const page = res.body as {
        total: number;
        items: { id: string; at: string }[];
        dateFilter: { timeZone: string; from: string; to: string };
      };
      expect(page.total).toBeGreaterThan(0);
      expect(page.items.length).toBe(page.total);
      expect(page.dateFilter).toEqual({
        timeZone: "America/Los_Angeles",
        from: "2026-05-10T07:00:00.000Z",
        to: "2026-05-12T06:59:59.999Z",
      });
      for (const t of page.items) expect(t.at >= "2026-05-10T07:00:00" && t.at < "2026-05-12T07:00:00").toBe(true);
      // The UTC days that cover May 10–11 in Los Angeles (PDT, UTC−7): May 10 to 12; the zone's days are fewer rows.
      const covering = (await b.fetch("/api/transactions?from=2026-05-10&to=2026-05-12&limit=200")).body as {
        total: number;
        items: { id: string; at: string }[];
      };
      expect(page.total).toBeLessThan(covering.total);
      expect(page.items.map((t) => t.id)).toEqual(
        covering.items.filter((t) => t.at >= "2026-05-10T07:00:00" && t.at < "2026-05-12T07:00:00").map((t) => t.id),
      );
      // Small pages of the same filter are the same rows in the same order, and their envelope adds up.
      const small: string[] = [];
      const pages = Math.ceil(page.total / 7);
      for (let n = 1; n <= pages; n += 1) {
        const part = (
          await b.fetch(
            `/api/transactions?from=2026-05-10&to=2026-05-11&tz=America%2FLos_Angeles&limit=7&page=${String(n)}`,
          )
        ).body as { total: number; pages: number; items: { id: string }[] };
        expect(part).toMatchObject({ total: page.total, pages });
        small.push(...part.items.map((t) => t.id));
      }
      expect(small).toEqual(page.items.map((t) => t.id));
      const past = (
        await b.fetch(
          `/api/transactions?from=2026-05-10&to=2026-05-11&tz=America%2FLos_Angeles&limit=7&page=${String(pages + 1)}`,
        )
      ).body as { items: unknown[] };
      expect(past.items).toEqual([]);
      // The export of those days is the same rows.
      const file = await b.fetch(
        "/api/transactions/export?format=csv&from=2026-05-10&to=2026-05-11&tz=America%2FLos_Angeles",
      );
      expect(file.res.headers.get("x-export-total")).toBe(String(page.total));
      expect(file.res.headers.get("content-disposition")).toContain("2026-05-10_to_2026-05-11_America-Los_Angeles");
      const ids = new Set(page.items.map((t) => t.id));
      const fileIds = file.text.split("\r\n").filter((line) => ids.has(line.split(",").at(-1) ?? ""));
      expect(fileIds).toHaveLength(page.total);
      // Without tz the days are UTC days.
      const utc = (await b.fetch("/api/transactions?from=2026-05-10&to=2026-05-10&limit=1")).body as {
        dateFilter: unknown;
      };
      expect(utc.dateFilter).toEqual({
        timeZone: "UTC",
        from: "2026-05-10T00:00:00.000Z",
        to: "2026-05-10T23:59:59.999Z",
      });
    });

    it("says what is wrong with a date in words, without echoing the parameter's name in front", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/transactions?from=2026-02-30&to=later");
      expect(res.status).toBe(400);
      expect(errorMessageOf(res.body)).toBe(
        "The start date (from) “2026-02-30” is not a day of the calendar. The end date (to) must be a day written as YYYY-MM-DD, e.g. 2026-05-01; “later” is not.",
      );
    });
  });

  it("exports XLSX: a Transactions sheet with every filtered row and an About sheet", async () => {
    const b = await loggedIn();
    const { res } = await b.fetch("/api/transactions/export?format=xlsx&status=failed", { raw: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("spreadsheetml");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const total = ((await b.fetch("/api/transactions?status=failed&limit=1")).body as { total: number }).total;
    expect(workbook.getWorksheet("Transactions")?.actualRowCount).toBe(total + 1);
    expect(workbook.getWorksheet("About")).toBeDefined();
  });

  describe("headers", () => {
    it("puts security headers and no-store on data routes", async () => {
      const b = await loggedIn();
      const res = await b.fetch("/api/account");
      const h = res.res.headers;
      expect(h.get("cache-control")).toContain("no-store");
      expect(h.get("x-content-type-options")).toBe("nosniff");
      expect(h.get("referrer-policy")).toBeTruthy();
      expect(h.get("cross-origin-opener-policy")).toBe("same-origin");
    });

    it("puts a CSP with a per-request nonce on pages", async () => {
      const b = await loggedIn();
      const one = await b.fetch("/", { headers: { Accept: "text/html" } });
      const two = await b.fetch("/", { headers: { Accept: "text/html" } });
      const csp = one.res.headers.get("content-security-policy") ?? "";
      for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
        expect(csp).toContain(directive);
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      expect(two.res.headers.get("content-security-policy")).not.toContain(nonce ?? "none");
      expect(one.res.headers.get("permissions-policy")).toContain("geolocation=(self)");
      // The proxy's CSP replaces the baseline of next.config.ts: one policy, not two (a browser would enforce both).
      expect(csp).not.toContain("default-src 'none'");
    });

    it("a page path ending like a file (/transactions/x.json) still gets the proxy: the sign-in redirect, or the page CSP", async () => {
      for (const path of ["/transactions/x.json", "/stations/x.js", "/x.css"]) {
        const anonymous = await browser().fetch(path, { headers: { Accept: "text/html" } });
        expect(anonymous.status, path).toBe(307);
        expect(anonymous.res.headers.get("location"), path).toContain(`/login?next=${encodeURIComponent(path)}`);
      }
      const b = await loggedIn();
      const page = await b.fetch("/transactions/x.json", { headers: { Accept: "text/html" } });
      expect(page.res.headers.get("content-security-policy")).toMatch(
        /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/,
      );
    });

    it("responses that skip the proxy (static files, public files, prefetches) carry the baseline CSP that allows nothing", async () => {
      const b = await loggedIn();
      const login = await browser().fetch("/login", { headers: { Accept: "text/html" } });
      const chunk = /src="(\/_next\/static\/[^"]+\.js)"/.exec(login.text)?.[1];
      expect(chunk).toBeDefined();
      for (const path of [chunk ?? "", "/favicon.svg", "/basemap/us-states-10m.json"]) {
        const res = await browser().fetch(path, { raw: true });
        expect(res.status, path).toBe(200);
        expect(res.res.headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.res.headers.get("x-content-type-options"), path).toBe("nosniff");
        await res.res.body?.cancel();
      }
      const prefetch = await b.fetch("/transactions", {
        headers: { Accept: "text/x-component", RSC: "1", "Next-Router-Prefetch": "1" },
        raw: true,
      });
      expect(prefetch.res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      await prefetch.res.body?.cancel();
    });
  });

  it("summary totals equal the sandbox's own sums, exactly", async () => {
    const b = await loggedIn();
    const s = (await b.fetch("/api/transactions/summary?from=2026-04-01&to=2026-05-31")).body as {
      totals: { transactions: number; gallons: string; amount: string };
    };
    const db = new Database(upstream.dbPath, { readonly: true });
    const row = db
      .prepare(
        `SELECT COUNT(*) AS n, SUM(gallons_milli) AS g, SUM(amount_cents) AS a FROM transactions t JOIN customers c ON c.pk = t.customer_pk
         WHERE c.code = 'PFL' AND t.status != 'failed' AND t.at_utc BETWEEN ? AND ?`,
      )
      .get(Date.parse("2026-04-01T00:00:00Z") / 1000, Date.parse("2026-05-31T23:59:59Z") / 1000) as {
      n: number;
      g: number;
      a: number;
    };
    db.close();
    expect(s.totals.transactions).toBe(row.n);
    expect(s.totals.gallons).toBe((row.g / 1000).toFixed(3));
    expect(s.totals.amount).toBe((row.a / 100).toFixed(2));
  });

  it("bounds the summary's range even when one end is left to its default", async () => {
    const b = await loggedIn();
    const res = await b.fetch("/api/transactions/summary?from=0001-01-01");
    expect(res.status).toBe(400);
    expect(errorMessageOf(res.body)).toContain("366 days");
  });

  it("throttles failed sign-ins itself, before asking the upstream again", async () => {
    const keyId = "ffk_000000000000000000000042";
    let last = await browser().login(keyId, "ffs_guess-0");
    for (let i = 1; i < 12 && last.status === 401; i++) last = await browser().login(keyId, `ffs_guess-${String(i)}`);
    expect(last.status).toBe(429);
    expect(Number(last.res.headers.get("retry-after"))).toBeGreaterThan(0);
    const before = upstreamRequests(upstream).length;
    const again = await browser().login(keyId, "ffs_guess-again");
    expect(again.status).toBe(429);
    expect(upstreamRequests(upstream).length).toBe(before); // the upstream was not asked
  });

  it("never lets the secret or a bearer token reach a response or a log line", () => {
    expect(recorded.length).toBeGreaterThan(20);
    const secrets = Object.values(upstream.keys).map((k) => k.secret);
    const everything = recorded.map((r) => `${r.headers}\n${r.body}`).join("\n") + app.output();
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/fft_[A-Za-z0-9_-]{20,}/);
    for (const k of Object.values(upstream.keys)) expect(app.output()).not.toContain(k.keyId);
  });
});

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

describe("exports of 25,000 rows", () => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  beforeAll(async () => {
    upstream = await startSandboxProcess({
      log: true,
      args: ["--budget", "100000", "--reset", "--transactions", "25000", "--fault-latency", "20"],
    });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
  }, 240_000);
  afterAll(async () => {
    // Both guarded: when a start failed, the other process must still be stopped.
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("GET /api/transactions/totals does not walk a set of more than 5,000 rows: one request tells the count", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const before = upstreamRequests(upstream).filter(isListCall).length;
    const all = await b.fetch("/api/transactions/totals");
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ state: "too_many", transactions: 25_000, maxRows: 5_000 });
    expect(upstreamRequests(upstream).filter(isListCall).length - before).toBe(1);
  }, 60_000);

  it("equal the sandbox's rows exactly: count, ids, order, no duplicates", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const res = await b.fetch("/api/transactions/export?format=csv");
    expect(res.status).toBe(200);
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter((l) => l !== "");
    const ids = lines.slice(1).map((l) => l.split(",").at(-1) ?? "");
    const db = new Database(upstream.dbPath, { readonly: true });
    const expected = db
      .prepare(
        "SELECT t.id FROM transactions t JOIN customers c ON c.pk = t.customer_pk WHERE c.code = 'PFL' ORDER BY t.at_utc DESC, t.pk DESC",
      )
      .pluck()
      .all() as string[];
    db.close();
    expect(expected).toHaveLength(25_000);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  }, 120_000);

  it("neutralises formula injection in cells", async () => {
    const db = new Database(upstream.dbPath);
    db.prepare(
      'UPDATE drivers SET name = \'=HYPERLINK("http://evil.example","x")\' WHERE pk = (SELECT MIN(pk) FROM drivers)',
    ).run();
    db.close();
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const res = await b.fetch(`/api/transactions/export?format=csv&search=${encodeURIComponent("HYPERLINK")}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(res.text).not.toMatch(/(^|,)=HYPERLINK/m);
  }, 60_000);

  it("stops calling the upstream when the browser goes away", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const pages = () => upstreamRequests(upstream).filter(isListCall).length;
    const before = pages();
    const controller = new AbortController();
    const exportId = "abort-test-0001";
    const { res } = await b.fetch(`/api/transactions/export?format=csv&exportId=${exportId}`, {
      raw: true,
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    await reader?.read();
    controller.abort();
    await new Promise((r) => setTimeout(r, 1000));
    const afterAbort = pages();
    await new Promise((r) => setTimeout(r, 1500));
    expect(pages()).toBe(afterAbort);
    expect(afterAbort - before).toBeGreaterThan(0); // it had started
    expect(afterAbort - before).toBeLessThan(125); // and stopped well before the 125 pages of the whole set
    const progress = await b.fetch(`/api/transactions/export/progress?exportId=${exportId}`);
    expect(progress.body).toMatchObject({ state: "cancelled" });
    expect((progress.body as { rowsDone: number }).rowsDone).toBeLessThan(25_000);
  }, 60_000);
});

describe("an export of 100,000 rows the browser stops reading", () => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  beforeAll(async () => {
    upstream = await startSandboxProcess({
      log: true,
      args: ["--budget", "100000", "--reset", "--transactions", "100000"],
    });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("stops walking the upstream while the browser does not read, then delivers every row once it does", async () => {
    const b = new TestBrowser(app.origin);
    await b.login(upstream.keys["demo-full"].keyId, upstream.keys["demo-full"].secret);
    const pages = () => upstreamRequests(upstream).filter(isListCall).length;
    const before = pages();
    // node:http, so that not reading is really not reading: a paused response leaves the bytes in the socket,
    // and only back-pressure from there through Next's response to the walk keeps the app from walking on.
    const request = get(`${app.origin}/api/transactions/export?format=csv`, { headers: { Cookie: b.cookie ?? "" } });
    try {
      await stallThenRead(request, pages, before);
    } finally {
      request.destroy(); // a failed expectation must not leave the export open (the app would not stop)
    }
  }, 120_000);
});

/** The body of the test above: pause, wait for the walk to stop, check where; then read everything. */
async function stallThenRead(request: ClientRequest, pages: () => number, before: number): Promise<void> {
  const [response] = (await once(request, "response")) as [IncomingMessage];
  expect(response.statusCode).toBe(200);
  response.pause();
  // Wait until the page count has not moved for 2 s (at most 30 s): with back-pressure broken, the walk would go
  // on to the 500th page at this unlimited budget.
  let stalledAt = pages();
  for (let quiet = 0, waited = 0; quiet < 4 && waited < 60; waited++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = pages();
    quiet = now === stalledAt ? quiet + 1 : 0;
    stalledAt = now;
  }
  const walked = stalledAt - before;
  expect(walked).toBeGreaterThan(0);
  // What the socket and the streams can hold (a few MB of CSV, ~200 bytes a row) is well under half the file.
  expect(walked).toBeLessThan(250);

  response.setEncoding("utf8");
  let text = "";
  response.on("data", (chunk: string) => (text += chunk));
  response.resume();
  await once(response, "end");
  const ids = text
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter((l) => l !== "")
    .slice(1)
    .map((l) => l.split(",").at(-1) ?? "");
  expect(ids).toHaveLength(100_000);
  expect(new Set(ids).size).toBe(100_000);
  expect(pages() - before).toBe(500); // one request per page of 200, nothing fetched twice
}

describe("the BFF's configuration", () => {
  it("a bad value stops the start, naming every problem", async () => {
    await expect(
      startApp({ FLEET_API_BUDGET: "lots", SESSION_IDLE_MINUTES: "0", SESSION_SECRET: "short" }),
    ).rejects.toThrow(/FLEET_API_BUDGET[\s\S]*SESSION_IDLE_MINUTES|SESSION_IDLE_MINUTES[\s\S]*FLEET_API_BUDGET/);
  }, 120_000);
});
