import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { StationPricesReply, StationProductsInfo } from "@/lib/model";
import { type AppProcess, startApp } from "@/test/app-process";
import { isDetailCall, PROFILES, SESSION_SECRET, settle, stationIds, upstreamRequests } from "@/test/bff-stack";
import { errorCodeOf, errorMessageOf, type Recorded, TestBrowser } from "@/test/browser";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

// The product filter's BFF routes over real HTTP: `next start` of the built app against the sandbox as a separate
// process, in both profiles. Expected prices come from the sandbox's own detail replies, fetched directly.

const run = promisify(execFile);

/**
 * The sandbox's own detail reply for a station, for the demo customer (prices are the customer's), with a token of its
 * own, not through the BFF under test. Its requests appear in the sandbox's log: call it after counting.
 */
async function sandboxDetail(sb: SandboxProcess, id: string): Promise<Record<string, unknown>> {
  const pair = sb.keys["demo-full"];
  const auth = await fetch(`${sb.baseUrl}/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ key_id: pair.keyId, secret: pair.secret }),
  });
  const { access_token: token } = (await auth.json()) as { access_token: string };
  const res = await fetch(`${sb.baseUrl}/locations/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  return (body.data ?? body) as Record<string, unknown>;
}

const money3 = (value: unknown) => (value === null || value === undefined ? null : Number(value).toFixed(3));

/** What the BFF must answer for a station, from the sandbox's reply: its `prices` (alternative), or its one price (primary). */
function expectedPrices(detail: Record<string, unknown>): Record<string, string | null> {
  const prices = detail.prices as Record<string, unknown> | undefined;
  if (prices !== undefined)
    return Object.fromEntries(Object.entries(prices).map(([product, price]) => [product, money3(price)]));
  return detail.price === null ? {} : { diesel: money3(detail.price) ?? "" };
}

async function createKeyWithout(sb: SandboxProcess, scopes: string): Promise<{ keyId: string; secret: string }> {
  const { stdout } = await run(process.execPath, [
    "node_modules/tsx/dist/cli.mjs",
    "sandbox/cli.ts",
    "keys",
    "create",
    "--customer",
    "PFL",
    "--scopes",
    scopes,
    "--label",
    "test-no-locations",
    "--json",
    "--db",
    sb.dbPath,
  ]);
  const created = JSON.parse(stdout) as { key_id: string; secret: string };
  return { keyId: created.key_id, secret: created.secret };
}

describe.each(PROFILES)("GET /api/locations/products and /api/locations/prices (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let app: AppProcess;
  const recorded: Recorded[] = [];
  const loggedIn = async (pair: { keyId: string; secret: string } = upstream.keys["demo-full"]) => {
    const b = new TestBrowser(app.origin, recorded);
    expect((await b.login(pair.keyId, pair.secret)).status).toBe(200);
    await settle();
    return b;
  };

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    app = await startApp({ FLEET_API_BASE_URL: upstream.baseUrl, SESSION_SECRET, FLEET_API_BUDGET: "100000" });
  }, 240_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("learns which products the detail prices from one real detail reply, then answers from its cache", async () => {
    const b = await loggedIn();
    const before = upstreamRequests(upstream).length;
    const res = await b.fetch("/api/locations/products");
    expect(res.status).toBe(200);
    const info = res.body as StationProductsInfo;
    await settle();
    const made = upstreamRequests(upstream).slice(before);
    const probes = made.filter(isDetailCall);
    expect(probes).toHaveLength(1);
    // The expectation comes from the sandbox's own reply for the station the BFF probed.
    const probedId = /\/locations\/([^/\s]+) /.exec(probes[0] ?? "")?.[1] ?? "";
    const again = upstreamRequests(upstream).length;
    expect((await b.fetch("/api/locations/products")).body).toEqual(info);
    await settle();
    expect(upstreamRequests(upstream).length).toBe(again);
    // The expectation comes from the sandbox's own reply for the station the BFF probed.
    const expected = Object.keys(expectedPrices(await sandboxDetail(upstream, probedId)));
    expect(info.products).toEqual(expected);
    expect(info.hasSeveralPrices).toBe(expected.length > 1);
    expect(info.hasSeveralPrices).toBe(profile === "alternative");
  });

  it("answers each station's detail prices as the sandbox's detail gives them, one upstream call per uncached station", async () => {
    const b = await loggedIn();
    const ids = stationIds(upstream, 40).slice(20, 27);
    const before = upstreamRequests(upstream).length;
    const res = await b.fetch(`/api/locations/prices?ids=${ids.join(",")}`);
    expect(res.status).toBe(200);
    const reply = res.body as StationPricesReply;
    expect(reply.notFound).toEqual([]);
    expect(reply.deferred).toEqual([]);
    expect(reply.retryAfterSeconds).toBeNull();
    expect(reply.items.map((i) => i.id)).toEqual(ids);
    await settle();
    const made = upstreamRequests(upstream).slice(before).filter(isDetailCall);
    expect(made).toHaveLength(ids.length);

    // Within the TTL: no upstream call, neither for the same stations nor for the detail page of one of them.
    const after = upstreamRequests(upstream).length;
    const cached = await b.fetch(`/api/locations/prices?ids=${[...ids].reverse().join(",")}`);
    expect((cached.body as StationPricesReply).items.map((i) => i.id)).toEqual([...ids].reverse());
    expect((await b.fetch(`/api/locations/${ids[0] ?? ""}`)).status).toBe(200);
    await settle();
    expect(upstreamRequests(upstream).length).toBe(after);

    // The prices equal the sandbox's own detail replies for this customer.
    for (const item of reply.items) {
      const detail = await sandboxDetail(upstream, item.id);
      expect(item.prices).toEqual(expectedPrices(detail));
      expect(item.priceUpdatedAt === null ? null : Date.parse(item.priceUpdatedAt)).toBe(
        Date.parse(String(detail.price_updated_at)),
      );
      expect(Date.parse(item.checkedAt)).not.toBeNaN();
    }
    if (profile === "alternative") expect(reply.items.every((i) => Object.keys(i.prices).length === 3)).toBe(true);
  });

  it("reports a station id that does not exist instead of failing, and does not ask again for it within the TTL", async () => {
    const b = await loggedIn();
    const [real = ""] = stationIds(upstream, 50).slice(45);
    const missing = "00000000-0000-4000-8000-00000000dead";
    const res = await b.fetch(`/api/locations/prices?ids=${missing},${real}`);
    expect(res.status).toBe(200);
    const reply = res.body as StationPricesReply;
    expect(reply.notFound).toEqual([missing]);
    expect(reply.items.map((i) => i.id)).toEqual([real]);
    const before = upstreamRequests(upstream).length;
    expect(((await b.fetch(`/api/locations/prices?ids=${missing}`)).body as StationPricesReply).notFound).toEqual([
      missing,
    ]);
    expect((await b.fetch(`/api/locations/${missing}`)).status).toBe(404);
    await settle();
    expect(upstreamRequests(upstream).length).toBe(before);
  });

  it.each([
    ["no ids", "", /ids is required/],
    ["empty ids", "?ids=,,", /ids must name 1 to 25 station ids/],
    [
      "26 ids",
      `?ids=${Array.from({ length: 26 }, (_, i) => `s${String(i)}`).join(",")}`,
      /ids names 26 stations; ask for at most 25 per request/,
    ],
    ["a path in an id", "?ids=abc,..%2Faccount-details", /“..\/account-details” is not a station id/],
    ["an unknown parameter", "?ids=abc&product=def", /Unknown query parameter: product/],
    ["ids twice", "?ids=abc&ids=def", /ids was given more than once/],
  ])("answers %s with a 400 a person can act on, without asking the upstream", async (_what, query, message) => {
    const b = await loggedIn();
    const before = upstreamRequests(upstream).length;
    const res = await b.fetch(`/api/locations/prices${query}`);
    expect(res.status).toBe(400);
    expect(errorCodeOf(res.body)).toBe("bad_request");
    expect(errorMessageOf(res.body)).toMatch(message);
    await settle();
    expect(upstreamRequests(upstream).length).toBe(before);
  });

  it("needs a session", async () => {
    const anonymous = new TestBrowser(app.origin, recorded);
    expect((await anonymous.fetch("/api/locations/prices?ids=abc")).status).toBe(401);
    expect((await anonymous.fetch("/api/locations/products")).status).toBe(401);
  });

  it("says which scope a key without the locations scope lacks", async () => {
    const b = await loggedIn(await createKeyWithout(upstream, "account,transactions"));
    const res = await b.fetch(`/api/locations/prices?ids=${stationIds(upstream, 1).join(",")}`);
    expect(res.status).toBe(403);
    expect(errorCodeOf(res.body)).toBe("scope_denied");
    expect(errorMessageOf(res.body)).toContain(profile === "primary" ? "read" : "locations");
  });

  it("never lets a secret or a bearer token reach a response or a log line", () => {
    expect(recorded.length).toBeGreaterThan(10);
    const everything = recorded.map((r) => `${r.headers}\n${r.body}`).join("\n") + app.output();
    for (const k of Object.values(upstream.keys)) expect(everything).not.toContain(k.secret);
    expect(everything).not.toMatch(/fft_[A-Za-z0-9_-]{20,}/);
  });
});
