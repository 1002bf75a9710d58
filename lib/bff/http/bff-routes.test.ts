import { gunzipSync } from "node:zlib";

import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { PROFILES, upstreamRequests, useBffStack } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf } from "@/test/browser";

// The BFF over real HTTP (`next start` of the built app, the sandbox as a separate process): bad parameters, the
// summary, the station catalog, CSV and XLSX exports, time zones, and the security headers of routes and pages.

describe.each(PROFILES)("the BFF over HTTP (%s profile)", (profile) => {
  const bff = useBffStack(profile);
  const { browser, loggedIn } = bff;

  describe("data routes", () => {
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
      ["/api/transactions?sort=color", "sort"],
      ["/api/transactions?dir=up", "dir"],
      ["/api/transactions?amountMin=12.345", "amountMin"],
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
      const before = upstreamRequests(bff.upstream).length;
      const all = await b.fetch("/api/locations?all=1");
      const items = (all.body as { items: { id: string }[] }).items;
      expect(items.length).toBeGreaterThan(100);
      const calls = upstreamRequests(bff.upstream)
        .slice(before)
        .filter((r) => r.startsWith("GET /api/v1/locations"));
      expect(calls).toHaveLength(Math.ceil(items.length / 500));
      await b.fetch("/api/locations?all=1");
      expect(upstreamRequests(bff.upstream).length).toBe(before + calls.length);
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
          `attachment; filename="fleet-fuel-transactions_(PFL|prairie-freight-lines)_2026-05-01_to_2026-05-31_UTC-days_completed_newest-first_\\d{4}-\\d{2}-\\d{2}T\\d{6}Z_${String(list.total)}-rows\\.csv"`,
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
    // exceljs's zip writer (archiver 5) used archiver-utils 2's `new Buffer(string)`; bundled into the app it printed
    // "DEP0005 Buffer() is deprecated" on the first export (next.config.ts loads exceljs from node_modules).
    expect(bff.app.output()).not.toContain("DEP0005");
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
});
