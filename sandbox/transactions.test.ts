import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { addTransactions } from "./db/seed";
import { EXCEPTION_CASE_ROWS } from "./db/seed-exceptions";
import { schemasFor } from "./routes/schemas";
import { TEST_TRANSACTIONS } from "./test/constants";

/** The demo customer's rows: the generated history and the seeded exception cases. */
const DEMO_ROWS = TEST_TRANSACTIONS + EXCEPTION_CASE_ROWS;
import {
  client,
  decimalUnits,
  errorCode,
  errorMessage,
  startTestSandbox,
  type TestSandbox,
  walkPages,
} from "./test/harness";

interface Item {
  id: string;
  transaction_at: string;
  status: string;
  gallons: number | string;
  price_per_gallon: number | string;
  amount: number | string;
  station: { id: string; name: string };
  driver: { id: string; name: string; truck_id: string | null };
  card: { last4: string };
}
interface PageBody {
  data: { page: number; limit: number; total: number; pages: number; items: Item[] };
}

describe.each(PROFILES)("GET /transactions (%s profile)", (profile) => {
  let sb: TestSandbox;
  let api: ReturnType<typeof client>;
  let token: string;
  const schemas = schemasFor(profile);
  const list = async (query: string) => {
    const res = await api.get(`/transactions${query}`, token);
    return { ...res, page: res.body as unknown as PageBody };
  };
  const walk = (query: string, limit = 200) =>
    walkPages<Item>((page) => list(`?limit=${String(limit)}&page=${String(page)}${query}`));

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, budget: 100_000 });
    api = client(sb.baseUrl);
    token = await api.token();
  });
  afterAll(() => sb.close());

  it("returns the documented page envelope and item shape, with the defaults page=1 and limit=50", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    const body = schemas.TransactionPage.parse(res.body);
    expect(body.data).toMatchObject({ page: 1, limit: 50, total: DEMO_ROWS });
    expect(body.data.items).toHaveLength(50);
    expect(body.data.pages).toBe(Math.ceil(DEMO_ROWS / 50));
    const item = body.data.items[0];
    if (profile === "primary") {
      expect(typeof item?.amount).toBe("number");
      expect(item?.transaction_at).toMatch(/[+-]\d{2}:\d{2}$/);
    } else {
      expect(item?.amount).toMatch(/^\d+\.\d{2}$/);
      expect(item?.transaction_at).toMatch(/Z$/);
    }
  });

  it("walking every page yields every transaction exactly once, newest first, and total/pages agree", async () => {
    const { items, total, pages } = await walk("");
    expect(total).toBe(DEMO_ROWS);
    expect(pages).toBe(Math.ceil(total / 200));
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.id)).size).toBe(total);
    const times = items.map((i) => Date.parse(i.transaction_at));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1] ?? Infinity);
  });

  it("amount is gallons × price rounded to cents, exactly", async () => {
    const { items } = await walk("&status=completed", 200);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const product = decimalUnits(item.gallons, 3) * decimalUnits(item.price_per_gallon, 3); // 1e-6 dollars
      expect(decimalUnits(item.amount, 2)).toBe((product + 5000n) / 10000n);
    }
  });

  it("filters by status; the statuses partition the whole set", async () => {
    let sum = 0;
    for (const status of ["completed", "pending", "failed"]) {
      const res = await list(`?status=${status}&limit=200`);
      expect(res.status).toBe(200);
      expect(res.page.data.items.every((i) => i.status === status)).toBe(true);
      expect(res.page.data.total).toBeGreaterThan(0);
      sum += res.page.data.total;
    }
    expect(sum).toBe(DEMO_ROWS);
  });

  it("searches station name, driver name and card last four, case-insensitively", async () => {
    const sample = (await list("?limit=1")).page.data.items[0];
    if (!sample) throw new Error("no data");
    const driverWord = sample.driver.name.split(" ")[1] ?? sample.driver.name;
    for (const term of [driverWord.toUpperCase(), sample.card.last4, sample.station.name.slice(0, 8).toLowerCase()]) {
      const { items, total } = await walk(`&search=${encodeURIComponent(term)}`);
      expect(total).toBeGreaterThan(0);
      expect(items).toHaveLength(total);
      for (const item of items) {
        const haystack = [item.station.name, item.driver.name, item.card.last4].join("\n").toLowerCase();
        expect(haystack).toContain(term.toLowerCase());
      }
    }
    const none = await list("?search=zzqx-no-such-thing");
    expect(none.page.data).toMatchObject({ total: 0, pages: 0, items: [] });
    // % and _ are literal characters, not wildcards.
    expect((await list("?search=%25")).page.data.total).toBe(0);
    expect((await list("?search=_")).page.data.total).toBe(0);
  });

  it.each(["%00", "pilot%00", "%00%25", "%1F", "a%0Ab", "%09", "%7F"])(
    "rejects control characters in search (?search=%s) with 400 naming search",
    async (value) => {
      const res = await list(`?search=${value}`);
      expect(res.status).toBe(400);
      expect(errorCode(res.body)).toBe("bad_request");
      expect(errorMessage(res.body)).toBe("search must not contain control characters.");
      schemas.ErrorBody.parse(res.body);
    },
  );

  it("a page past the end is empty, not an error", async () => {
    const res = await list("?page=9999&limit=200");
    expect(res.status).toBe(200);
    expect(res.page.data.items).toEqual([]);
    expect(res.page.data.total).toBe(DEMO_ROWS);
  });

  it("from/to are inclusive at the day edges", async () => {
    // Four transactions around 2024-02-10, a day with nothing else for PFL.
    sb.db
      .prepare("DELETE FROM transactions WHERE at_utc BETWEEN ? AND ?")
      .run(Date.parse("2024-02-09T00:00:00Z") / 1000, Date.parse("2024-02-11T23:59:59Z") / 1000);
    const [before] = addTransactions(sb.db, "PFL", 1, Date.parse("2024-02-09T23:59:59Z") / 1000, 1);
    const [start] = addTransactions(sb.db, "PFL", 1, Date.parse("2024-02-10T00:00:00Z") / 1000, 2);
    const [end] = addTransactions(sb.db, "PFL", 1, Date.parse("2024-02-10T23:59:59Z") / 1000, 3);
    const [after] = addTransactions(sb.db, "PFL", 1, Date.parse("2024-02-11T00:00:00Z") / 1000, 4);
    const range =
      profile === "primary" ? "&from=2024-02-10&to=2024-02-10" : "&from=2024-02-10T00:00:00Z&to=2024-02-10T23:59:59Z";
    const { items } = await walk(range);
    expect(items.map((i) => i.id).sort()).toEqual([start, end].sort());
    expect(items.map((i) => i.id)).not.toContain(before);
    expect(items.map((i) => i.id)).not.toContain(after);
    if (profile === "alternative") {
      // An offset moves the instant: 2024-02-09T19:00:00-05:00 is 2024-02-10T00:00:00Z.
      const offset = await walk("&from=2024-02-09T19:00:00-05:00&to=2024-02-09T19:00:00-05:00");
      expect(offset.items.map((i) => i.id)).toEqual([start]);
    }
  });

  const badDate = profile === "primary" ? "2026-13-01" : "2026-13-01T00:00:00Z";
  const wrongForm = profile === "primary" ? "2026-03-01T00:00:00Z" : "2026-03-01";
  const later = profile === "primary" ? ["2026-05-02", "2026-05-01"] : ["2026-05-02T00:00:00Z", "2026-05-01T00:00:00Z"];
  it.each([
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=abc", "limit"],
    ["limit=1e2", "limit"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["page=-1", "page"],
    ["page=1&page=2", "page"],
    [`from=${badDate}`, "from"],
    [`to=${badDate}`, "to"],
    [`from=${wrongForm}`, "from"],
    [`from=${later[0] ?? ""}&to=${later[1] ?? ""}`, "from"],
    ["status=settled", "status"],
    [`search=${"x".repeat(101)}`, "search"],
    ["sort=amount", "sort"],
    ["q=pilot", "q"],
  ])("answers 400 bad_request naming the parameter for ?%s", async (query, param) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("bad_request");
    expect(errorMessage(res.body)).toContain(param);
    schemas.ErrorBody.parse(res.body);
  });

  it("GET /transactions/{id} returns the full transaction of the documented detail shape", async () => {
    const item = (await list("?limit=1")).page.data.items[0];
    const res = await api.get(`/transactions/${item?.id ?? ""}`, token);
    expect(res.status).toBe(200);
    const body = schemas.TransactionResponse.parse(res.body);
    expect(body.data.id).toBe(item?.id);
    expect(body.data).toMatchObject({ amount: item?.amount, station: { id: item?.station.id } });
    if (profile === "primary") {
      expect(res.body).toMatchObject({
        data: {
          station: { address: expect.any(String) as unknown },
          driver: { email: expect.stringContaining("@") as unknown },
          card: { type: expect.any(String) as unknown },
        },
      });
    } else {
      expect(res.body).toMatchObject({
        data: { audit: { authorization_code: expect.stringMatching(/^\d{6}$/) as unknown } },
      });
    }
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "..%2F..%2Faccount-details", "x".repeat(5000)])(
    "answers 404 not_found for the unknown id %s",
    async (id) => {
      const res = await api.get(`/transactions/${id}`, token);
      expect(res.status).toBe(404);
      expect(errorCode(res.body)).toBe("not_found");
    },
  );

  it("never shows one customer's transactions to another: each of B's ids is 404 for A", async () => {
    const other = await api.token("other-full");
    const theirs = (await api.get("/transactions?limit=200", other)).body as unknown as PageBody;
    expect(theirs.data.items.length).toBeGreaterThan(0);
    const mine = await walk("");
    const myIds = new Set(mine.items.map((i) => i.id));
    for (const item of theirs.data.items) {
      expect(myIds.has(item.id)).toBe(false);
      const res = await api.get(`/transactions/${item.id}`, token);
      expect(res.status).toBe(404);
      expect((await api.get(`/transactions/${item.id}`, other)).status).toBe(200);
    }
  });
});
