import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient, RequestBudget, type UpstreamCall } from "@/lib/fleet-api";
import type { Transaction } from "@/lib/model";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { findByReference, isReferenceLike } from "./reference-search";

// The reference lookup against the sandbox as a process (3,000 transactions of the demo customer: 15 pages of 200),
// with a real upstream client: how many list requests each answer costs, and that it stays exact when the
// references do not follow the list's order (the sandbox's live-added transactions get random references).

describe("isReferenceLike", () => {
  it.each([
    ["FF0001935666", true],
    ["ff0001935666", true],
    ["FL0012345678", true],
    ["Smith", false],
    ["0042", false],
    ["Pilot 123", false],
    ["FF12", false],
  ])("%s → %s", (term, expected) => {
    expect(isReferenceLike(term)).toBe(expected);
  });
});

describe.each(["primary", "alternative"] as const)("findByReference against the sandbox (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  const calls: UpstreamCall[] = [];
  let client: FleetApiClient;
  const listCalls = () => calls.filter((c) => c.method === "GET" && c.path === "/transactions").length;
  const pageOf = async (page: number): Promise<{ pages: number; items: Transaction[] }> =>
    client.listTransactions(upstream.keys["demo-full"], { page, limit: 200 });

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    // The sandbox's budget is raised for the test, and so is the client's (its default keeps to 60 a minute).
    client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
      onUpstreamCall: (call) => calls.push(call),
    });
  }, 120_000);
  afterAll(async () => {
    await (upstream as SandboxProcess | undefined)?.stop();
  });

  it("bisects the newest-first pages: found or not, about 1 + log2(pages) requests, matching exactly", async () => {
    const { pages } = await pageOf(1);
    expect(pages).toBeGreaterThanOrEqual(10);
    const bound = 1 + Math.ceil(Math.log2(pages));
    for (const page of [1, 2, Math.ceil(pages / 2), pages - 1, pages]) {
      const items = (await pageOf(page)).items;
      for (const wanted of [items[0], items.at(-1)]) {
        if (wanted === undefined) throw new Error(`page ${String(page)} is empty`);
        const before = listCalls();
        const found = await findByReference(client, upstream.keys["demo-full"], {}, wanted.reference.toLowerCase());
        expect(
          found.matches.map((t) => t.id),
          `${wanted.reference} (page ${String(page)})`,
        ).toEqual([wanted.id]);
        expect(found.method).toBe("bisect");
        expect(listCalls() - before).toBeLessThanOrEqual(bound);
      }
    }
    for (const missing of ["FF0000000001", "FF9999999999", "ZZ000001"]) {
      const before = listCalls();
      const found = await findByReference(client, upstream.keys["demo-full"], {}, missing);
      expect(found.matches).toEqual([]);
      expect(listCalls() - before).toBeLessThanOrEqual(bound);
    }
  });

  it("keeps to the list's other filters", async () => {
    const wanted = (await pageOf(3)).items[5];
    if (wanted === undefined) throw new Error("page 3 is empty");
    const otherStatus = wanted.status === "failed" ? "completed" : "failed";
    expect(
      (
        await findByReference(client, upstream.keys["demo-full"], { status: wanted.status }, wanted.reference)
      ).matches.map((t) => t.id),
    ).toEqual([wanted.id]);
    expect(
      (await findByReference(client, upstream.keys["demo-full"], { status: otherStatus }, wanted.reference)).matches,
    ).toEqual([]);
  });

  it("walks every page, and stays exact, when the references do not follow the list's order", async () => {
    // Live-added transactions get random references: page 1's numbers no longer fall along the list.
    await upstream.addTransactions(20);
    const { pages } = await pageOf(1);
    const wanted = (await pageOf(pages - 1)).items[10];
    if (wanted === undefined) throw new Error("no row to look for");
    const found = await findByReference(client, upstream.keys["demo-full"], {}, wanted.reference);
    expect(found.matches.map((t) => t.id)).toEqual([wanted.id]);
    expect(found.method).toBe("walk");
    expect(found.pagesRead).toBe(pages);
  });
});
