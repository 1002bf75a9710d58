import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { schemasFor } from "./routes/schemas";
import { TEST_STATIONS } from "./test/constants";
import { client, errorCode, errorMessage, startTestSandbox, type TestSandbox, walkPages } from "./test/harness";

interface Loc {
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  city: string;
  state: string;
  price: number | string;
}
interface PageBody {
  data: { page: number; limit: number; total: number; pages: number; items: Loc[] };
}

describe.each(PROFILES)("GET /locations (%s profile)", (profile) => {
  let sb: TestSandbox;
  let api: ReturnType<typeof client>;
  let token: string;
  const schemas = schemasFor(profile);
  const searchParam = profile === "primary" ? "search" : "q";
  const list = async (query: string, as = token) => {
    const res = await api.get(`/locations${query}`, as);
    return { ...res, page: res.body as unknown as PageBody };
  };
  const all = (query = "", as = token) => walkPages<Loc>((page) => list(`?limit=500&page=${String(page)}${query}`, as));

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, budget: 100_000 });
    api = client(sb.baseUrl);
    token = await api.token();
  });
  afterAll(() => sb.close());

  it("returns the page envelope with the defaults page=1, limit=100 and the documented item shape", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    const body = schemas.LocationPage.parse(res.body);
    expect(body.data).toMatchObject({
      page: 1,
      limit: 100,
      total: TEST_STATIONS,
      pages: Math.ceil(TEST_STATIONS / 100),
    });
    expect(body.data.items).toHaveLength(100);
    expect(typeof body.data.items[0]?.price).toBe(profile === "primary" ? "number" : "string");
  });

  it("walking all pages yields every station once; loc_num keeps its leading zeros", async () => {
    const { items, total } = await all();
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.id)).size).toBe(total);
    expect(items.some((i) => i.loc_num.startsWith("0"))).toBe(true);
  });

  it("filters by brand with the profile's codes", async () => {
    const { items } = await all();
    const brands = new Set(items.map((i) => i.brand));
    if (profile === "primary") {
      expect(brands.size).toBeGreaterThan(3);
      const pilot = await all("&brand=pilot");
      expect(pilot.total).toBe(items.filter((i) => i.brand === "pilot").length);
      expect(pilot.items.every((i) => i.brand === "pilot")).toBe(true);
    } else {
      expect([...brands].sort()).toEqual(["loves", "other", "pilot"]);
      const other = await all("&brand=other");
      expect(other.total).toBe(items.filter((i) => i.brand === "other").length);
      expect(other.total).toBeGreaterThan(0);
      expect((await list("?brand=ta")).status).toBe(400);
    }
  });

  it("filters by state (either case) and a valid state without stations is an empty page", async () => {
    const tx = await all("&state=tx");
    expect(tx.total).toBeGreaterThan(0);
    expect(tx.items.every((i) => i.state === "TX")).toBe(true);
    const hawaii = await list("?state=HI");
    expect(hawaii.status).toBe(200);
    expect(hawaii.page.data.total).toBe(0);
  });

  it(`searches name, city or loc_num with ?${searchParam}=`, async () => {
    const { items } = await all();
    const sample = items[7];
    if (!sample) throw new Error("no data");
    for (const term of [sample.city.toLowerCase(), sample.loc_num, sample.name.slice(0, 6).toUpperCase()]) {
      const found = await all(`&${searchParam}=${encodeURIComponent(term)}`);
      expect(found.total).toBeGreaterThan(0);
      for (const item of found.items)
        expect([item.name, item.city, item.loc_num].join("\n").toLowerCase()).toContain(term.toLowerCase());
    }
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["state=XYZ", "state"],
    ["state=ZZ", "state"],
    ["brand=Shell Oil", "brand"],
    [profile === "primary" ? "q=x" : "search=x", profile === "primary" ? "q" : "search"],
  ])("answers 400 bad_request naming the parameter for ?%s", async (query, param) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("bad_request");
    expect(errorMessage(res.body)).toContain(param);
  });

  it.each(["%00", "pilot%00", "%00%25", "%1F", "a%0Ab", "%09", "%7F"])(
    `rejects control characters in ?${searchParam}=%s with 400 naming it`,
    async (value) => {
      const res = await list(`?${searchParam}=${value}`);
      expect(res.status).toBe(400);
      expect(errorCode(res.body)).toBe("bad_request");
      expect(errorMessage(res.body)).toBe(`${searchParam} must not contain control characters.`);
      schemas.ErrorBody.parse(res.body);
    },
  );

  it("prices are this customer's: the retail price minus the customer's per-gallon fee", async () => {
    const fees = Object.fromEntries(
      (sb.db.prepare("SELECT code, fee_milli FROM customers").all() as { code: string; fee_milli: number }[]).map(
        (r) => [r.code, r.fee_milli],
      ),
    );
    const mine = (await list("?limit=20")).page.data.items;
    const theirs = (await list("?limit=20", await api.token("other-full"))).page.data.items;
    for (const [i, station] of mine.entries()) {
      const row = sb.db.prepare("SELECT diesel_milli FROM stations WHERE id = ?").get(station.id) as {
        diesel_milli: number;
      };
      expect(Math.round(Number(station.price) * 1000)).toBe(row.diesel_milli - (fees.PFL ?? NaN));
      expect(Math.round(Number(theirs[i]?.price) * 1000)).toBe(row.diesel_milli - (fees.CHI ?? NaN));
    }
  });

  it("GET /locations/{id} returns the detail shape; unknown ids are 404", async () => {
    const station = (await list("?limit=1")).page.data.items[0];
    const res = await api.get(`/locations/${station?.id ?? ""}`, token);
    expect(res.status).toBe(200);
    const body = schemas.LocationResponse.parse(res.body);
    expect(body.data.id).toBe(station?.id);
    expect(body.data.price).toEqual(station?.price);
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope", "..%2F..%2Ftransactions"]) {
      const missing = await api.get(`/locations/${id}`, token);
      expect(missing.status).toBe(404);
      expect(errorCode(missing.body)).toBe("not_found");
    }
  });
});
