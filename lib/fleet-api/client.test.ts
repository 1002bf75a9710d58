import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { Account, Station, StationDetail, Transaction, TransactionDetail } from "@/lib/model";
import { rejection } from "@/test/expect-error";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { FleetApiClient } from "./client";
import type { UpstreamCall } from "./client-options";
import { resetVariants } from "./negotiation";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe.each(["primary", "alternative"] as const)("FleetApiClient against the sandbox (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let calls: UpstreamCall[];
  const newClient = (options: Partial<ConstructorParameters<typeof FleetApiClient>[0]> = {}) =>
    new FleetApiClient({ baseUrl: upstream.baseUrl, onUpstreamCall: (call) => calls.push(call), ...options });

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
  });
  afterAll(() => upstream.stop());
  beforeEach(() => {
    calls = [];
    resetVariants();
  });

  it("authenticates a key pair and reports the scopes the upstream names", async () => {
    const result = await newClient().authenticate(upstream.keys["demo-full"]);
    expect(result.scopes).toEqual(profile === "primary" ? null : ["account", "transactions", "locations"]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /auth"]);
  });

  it("rejects a wrong secret or a revoked key with a typed error", async () => {
    const wrong = await rejection(
      newClient().authenticate({ keyId: upstream.keys["demo-full"].keyId, secret: "ffs_wrong" }),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe(profile === "primary" ? "unauthenticated" : "invalid_credentials");
    expect(wrong.message).not.toContain("ffs_wrong");
    const revoked = await rejection(newClient().getAccount(upstream.keys["demo-revoked"]));
    expect(revoked.status).toBe(401);
  });

  it("reads the account in the model's shape (totals only where the upstream gives them)", async () => {
    const account = Account.parse(await newClient().getAccount(upstream.keys["demo-full"]));
    expect(account.name).toBe("Prairie Freight Lines");
    if (profile === "primary") {
      expect(account.code).toBe("PFL");
      expect(account.totals30d?.source).toBe("upstream");
    } else {
      expect(account.code).toBeNull();
      expect(account.totals30d).toBeNull();
      expect(JSON.stringify(account)).not.toContain("fee");
    }
  });

  it("makes one POST /auth for 50 concurrent calls with no token, then reuses the token", async () => {
    const client = newClient();
    await Promise.all(Array.from({ length: 50 }, () => client.getAccount(upstream.keys["demo-full"])));
    await client.listLocations(upstream.keys["demo-full"], { limit: 1 });
    expect(calls.filter((c) => c.path === "/auth")).toHaveLength(1);
    expect(calls.filter((c) => c.path === "/account-details")).toHaveLength(50);
    expect(calls.every((c) => c.path === "/auth" || c.auth === "bearer")).toBe(true);
  });

  it("lists transactions with a date range and status, negotiating the date form once per upstream", async () => {
    const client = newClient();
    const page = await client.listTransactions(upstream.keys["demo-full"], {
      from: "2026-05-01",
      to: "2026-05-31",
      status: "completed",
      limit: 200,
    });
    expect(page.total).toBeGreaterThan(0);
    for (const item of page.items) {
      Transaction.parse(item);
      expect(item.status).toBe("completed");
      expect(item.at >= "2026-05-01T00:00:00" && item.at <= "2026-05-31T23:59:59.999Z").toBe(true);
    }
    const gets = () => calls.filter((c) => c.path === "/transactions");
    // The alternative rejects ISO dates with a 400 naming `from`: one extra request, then remembered.
    expect(gets().map((c) => c.status)).toEqual(profile === "primary" ? [200] : [400, 200]);
    await client.listTransactions(upstream.keys["demo-full"], { from: "2026-05-01", to: "2026-05-31", limit: 1 });
    expect(gets().at(-1)?.status).toBe(200);
    expect(gets()).toHaveLength(profile === "primary" ? 2 : 3);
  });

  it("searches locations, negotiating search vs q once per upstream", async () => {
    const client = newClient();
    const page = await client.listLocations(upstream.keys["demo-full"], { search: "pilot", state: "TX" });
    expect(page.total).toBeGreaterThan(0);
    for (const station of page.items) {
      Station.parse(station);
      expect(station.state).toBe("TX");
      expect(`${station.name} ${station.city} ${station.locNum}`.toLowerCase()).toContain("pilot");
    }
    const gets = calls.filter((c) => c.path === "/locations").map((c) => c.status);
    expect(gets).toEqual(profile === "primary" ? [200] : [400, 200]);
  });

  it("gets one transaction and one station in full", async () => {
    const client = newClient();
    const keys = upstream.keys["demo-full"];
    const [first] = (await client.listTransactions(keys, { limit: 1 })).items;
    const detail = TransactionDetail.parse(await client.getTransaction(keys, first?.id ?? ""));
    expect(detail).toMatchObject({ id: first?.id, amount: first?.amount, station: { id: first?.station.id } });
    if (profile === "primary") expect(detail.driver.email).toContain("@");
    else expect(detail.audit).not.toBeNull();
    const [station] = (await client.listLocations(keys, { limit: 1 })).items;
    const full = StationDetail.parse(await client.getLocation(keys, station?.id ?? ""));
    expect(full.price).toBe(station?.price);
    expect(full.amenities.length).toBeGreaterThan(0);
  });

  it("maps not_found and keeps every id inside its own path", async () => {
    const client = newClient();
    const keys = upstream.keys["demo-full"];
    for (const id of [
      "00000000-0000-4000-8000-000000000000",
      "../account-details",
      "..",
      ".",
      "a/../../account-details",
      "x?limit=1",
      "x#y",
      "%2E%2E",
      "x".repeat(300),
    ]) {
      const error = await rejection(client.getTransaction(keys, id));
      expect(error.code).toBe("not_found");
    }
    const paths = calls.filter((c) => c.method === "GET").map((c) => c.path);
    expect(paths.every((p) => p.startsWith("/transactions/"))).toBe(true);
    expect(paths.some((p) => p.includes("/account-details") && !p.includes("%2F"))).toBe(false);
  });

  it("names the missing scope in the upstream's naming", async () => {
    const error = await rejection(newClient().listTransactions(upstream.keys["demo-no-transactions"], { limit: 1 }));
    expect(error.code).toBe("scope_denied");
    expect(error.status).toBe(403);
    expect(error.scope).toBe(profile === "primary" ? "read" : "transactions");
  });

  it("walks every transaction exactly once, reporting progress, one request per page", async () => {
    const client = newClient();
    const progress: number[] = [];
    const items = await collect(
      client.iterateTransactions(upstream.keys["demo-full"], {}, { onProgress: (p) => progress.push(p.pagesDone) }),
    );
    const total = (await client.listTransactions(upstream.keys["demo-full"], { limit: 1 })).total;
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.id)).size).toBe(total);
    const pages = Math.ceil(total / 200);
    expect(progress).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(calls.filter((c) => c.path === "/transactions" && c.status === 200)).toHaveLength(pages + 1);
    expect(calls.filter((c) => c.path === "/transactions" && c.priority === "bulk")).toHaveLength(pages);
  });

  it("loses and doubles nothing when new transactions arrive during a walk", async () => {
    const client = newClient();
    const keys = upstream.keys["demo-full"];
    const before = new Set((await collect(client.iterateTransactions(keys))).map((i) => i.id));
    // The walk is pull-based: after 250 items (inside page 3 of 100), new transactions arrive at the top and
    // shift every later page down by 150 (more than a page) before page 4 is fetched.
    const ids: string[] = [];
    let added: string[] = [];
    const remembered: number[] = [];
    for await (const item of client.iterateTransactions(
      keys,
      {},
      { pageSize: 100, onProgress: (p) => remembered.push(p.remembered) },
    )) {
      ids.push(item.id);
      if (ids.length === 250) added = await upstream.addTransactions(150);
    }
    expect(added).toHaveLength(150);
    expect(new Set(ids).size).toBe(ids.length); // nothing doubled
    for (const id of before) expect(ids).toContain(id); // nothing lost
    expect(ids.length).toBe(before.size);
    // What it remembered to get there: two pages plus the 150 that arrived, not every id.
    expect(Math.max(...remembered)).toBeLessThanOrEqual(2 * 100 + 150);
    expect(ids.length).toBeGreaterThan(2 * (2 * 100 + 150));
  });

  it("remembers at most two pages of ids to drop repeats, however many it delivers", async () => {
    const client = newClient();
    const progress: { delivered: number; remembered: number }[] = [];
    const items = await collect(
      client.iterateTransactions(
        upstream.keys["demo-full"],
        {},
        { pageSize: 100, onProgress: (p) => progress.push(p) },
      ),
    );
    const total = (await client.listTransactions(upstream.keys["demo-full"], { limit: 1 })).total;
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.id)).size).toBe(total);
    expect(total).toBeGreaterThan(5 * 2 * 100); // a set of every id would pass the bound several times over
    expect(progress.at(-1)?.delivered).toBe(total);
    expect(Math.max(...progress.map((p) => p.remembered))).toBeLessThanOrEqual(2 * 100);
  });

  it("loads the whole station catalog at bulk priority with one request per 500 stations", async () => {
    const stations = await newClient().listAllLocations(upstream.keys["demo-full"]);
    expect(new Set(stations.map((s) => s.id)).size).toBe(stations.length);
    const gets = calls.filter((c) => c.path === "/locations");
    expect(gets).toHaveLength(Math.ceil(stations.length / 500));
    expect(gets.every((c) => c.priority === "bulk")).toBe(true);
  });
});
