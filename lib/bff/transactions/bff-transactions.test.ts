import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

import { isListCall, MINUTE, PROFILES, upstreamRequests, useBffStack } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf } from "@/test/browser";

// The BFF over real HTTP (`next start` of the built app, the sandbox as a separate process): the account, the cache,
// one customer's data kept from another, the transaction list, its search and totals, odd ids, a missing scope and
// the summary's sums; then the secret scan over every response of the file.

describe.each(PROFILES)("the BFF over HTTP (%s profile)", (profile) => {
  const bff = useBffStack(profile);
  const { loggedIn, setClock } = bff;

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
        upstreamRequests(bff.upstream)
          .slice(from)
          .filter((r) => r.startsWith("GET /api/v1/account-details"));
      // An hour on: every answer cached by earlier tests has expired, so the sign-in must ask the upstream itself.
      await setClock(60 * MINUTE);
      try {
        const before = upstreamRequests(bff.upstream).length;
        const b = await loggedIn();
        expect(accountCalls(before)).toHaveLength(1);
        const afterLogin = upstreamRequests(bff.upstream).length;
        const res = await b.fetch("/api/account");
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ name: "Prairie Freight Lines" });
        expect(accountCalls(afterLogin)).toHaveLength(0);
        // Past the account's TTL it is asked again.
        await setClock(62 * MINUTE);
        const later = upstreamRequests(bff.upstream).length;
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
      const before = upstreamRequests(bff.upstream).length;
      await b.fetch("/api/account");
      await b.fetch("/api/transactions?limit=25");
      expect(upstreamRequests(bff.upstream).length).toBe(before);
    });

    it("identical concurrent requests for one key share one upstream call", async () => {
      const b = await loggedIn();
      const before = upstreamRequests(bff.upstream).filter(isListCall).length;
      const results = await Promise.all(Array.from({ length: 6 }, () => b.fetch("/api/transactions?limit=7&page=9")));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(upstreamRequests(bff.upstream).filter(isListCall).length - before).toBe(1);
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
      const direct = await fetch(`${bff.upstream.baseUrl}/transactions?search=${wanted.reference}`, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${bff.upstream.keys["demo-full"].keyId}:${bff.upstream.keys["demo-full"].secret}`).toString("base64")}`,
        },
      });
      const directBody = (await direct.json()) as { data?: { total: number }; total?: number };
      expect(directBody.data?.total ?? directBody.total).toBe(0);

      const before = upstreamRequests(bff.upstream).filter(isListCall).length;
      const found = (await b.fetch(`/api/transactions?search=${wanted.reference.toLowerCase()}&limit=50`))
        .body as ListBody;
      expect(found.total).toBe(1);
      expect(found.items.map((t) => t.id)).toEqual([wanted.id]);
      // Bisecting the newest-first pages on the references' order: page 1 and about log2(pages) more, not a walk.
      const spent = upstreamRequests(bff.upstream).filter(isListCall).length - before;
      expect(spent).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(pages)));
      // The list's other filters still apply: the reference with another status is not there.
      const otherStatus = wanted.status === "failed" ? "completed" : "failed";
      expect(
        ((await b.fetch(`/api/transactions?search=${wanted.reference}&status=${otherStatus}`)).body as ListBody).total,
      ).toBe(0);
      // A reference nobody has: an empty list, at the same small cost.
      const beforeMissing = upstreamRequests(bff.upstream).filter(isListCall).length;
      expect(((await b.fetch("/api/transactions?search=FF0000000001")).body as ListBody).total).toBe(0);
      expect(upstreamRequests(bff.upstream).filter(isListCall).length - beforeMissing).toBeLessThanOrEqual(
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

    it("keeps every id inside its own route: odd ids never reach another upstream path", async () => {
      const b = await loggedIn();
      const before = upstreamRequests(bff.upstream).length;
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
      const made = upstreamRequests(bff.upstream).slice(before);
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
  });

  it("summary totals equal the sandbox's own sums, exactly", async () => {
    const b = await loggedIn();
    const s = (await b.fetch("/api/transactions/summary?from=2026-04-01&to=2026-05-31")).body as {
      totals: { transactions: number; gallons: string; amount: string };
    };
    const db = new Database(bff.upstream.dbPath, { readonly: true });
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

  it("never lets the secret or a bearer token reach a response or a log line", () => {
    expect(bff.recorded.length).toBeGreaterThan(20);
    bff.expectNoSecretLeaked();
  });
});
