import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isFleetApiError } from "@/lib/fleet-api";
import type { Page, Station } from "@/lib/model";
import { filterStations } from "@/lib/model/station-filter";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { BffError } from "../http/errors";
import { runWithQuery } from "../http/operation";
import { operationContextForTest, useUpstreamForTest } from "../http/test-context";
import { catalogProgress } from "./catalog-progress";
import { getLocation } from "./get-location";
import { listLocations } from "./list-locations";

// The locations operations called as plain functions (no Next): a context over the real sandbox, in both profiles.

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe.each(["primary", "alternative"] as const)("locations operations without Next (%s profile)", (profile) => {
  let sb: SandboxProcess;
  beforeAll(async () => {
    sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
  });
  afterAll(() => sb.stop());

  it("lists a filtered page, and the whole catalog filtered by the same rule the map uses", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const page = (await runWithQuery(listLocations, ctx, { state: "tx", limit: "3" })) as Page<Station>;
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((s) => s.state === "TX")).toBe(true);
    const all = (await runWithQuery(listLocations, ctx, { all: "1" })) as Page<Station>;
    const texas = (await runWithQuery(listLocations, ctx, { all: "1", state: "TX" })) as Page<Station>;
    expect(texas.items).toEqual(filterStations(all.items, { state: "TX" }));
    expect(texas.total).toBe(page.total);
    expect((await runWithQuery(catalogProgress, ctx, {})).state).toBe("done");
  });

  it("reads one station in full", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const [first] = ((await runWithQuery(listLocations, ctx, { limit: "1" })) as Page<Station>).items;
    if (first === undefined) throw new Error("the sandbox has stations");
    const detail = await getLocation.run(ctx, first.id);
    expect(detail.id).toBe(first.id);
    expect(detail.name).toBe(first.name);
  });

  it("refuses bad query values with sentences naming each parameter", async () => {
    const ctx = operationContextForTest(sb.keys["demo-full"]);
    const error = await rejection(runWithQuery(listLocations, ctx, { limit: "501", state: "XX" }));
    expect(error).toBeInstanceOf(BffError);
    const bad = error as BffError;
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("limit must be at most 500");
    expect(bad.message).toContain("state must be a USPS two-letter code, e.g. TX");
    const pack = await rejection(runWithQuery(listLocations, ctx, { pack: "gzip" }));
    expect((pack as BffError).message).toBe("pack=gzip is only for the whole catalog (all=1).");
  });

  it("passes on the upstream's refusal of a revoked key, for the route to end the session", async () => {
    const ctx = operationContextForTest(sb.keys["demo-revoked"]);
    const error = await rejection(runWithQuery(listLocations, ctx, { limit: "1" }));
    expect(isFleetApiError(error) && ["unauthenticated", "invalid_credentials"].includes(error.code)).toBe(true);
  });
});
