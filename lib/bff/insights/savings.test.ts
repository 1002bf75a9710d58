import { beforeAll, describe, expect, it } from "vitest";

import { readCatalog } from "@/lib/mirror";
import type { Station, Transaction } from "@/lib/model";
import { toMinorUnits } from "@/lib/model/decimal-math";
import type { SavingsReply } from "@/lib/model/insight-savings";
import { distanceMiles } from "@/lib/route/geo";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";

import { type OperationContext, runWithQuery } from "../http/operation";
import { fleetApi } from "../platform/upstream";
import { getSavings } from "./savings";

// GET /api/savings over a real mirror synced from the real sandbox (both profiles): the figures equal a brute-force
// comparison of the sandbox's own transactions with its own catalog — each fill against the OTHER stations within the
// radius whose price was observed within 24 h of it (the catalog says since when each price holds; the walk saw it
// now), never its own station, never today's price for a fill before the price began — the fills not compared counted
// by why, "was the customer price applied?" against the station's own observed price; the catalog walk is recorded in
// the mirror once, and bad parameters are 400s with a sentence, no mirror a 409.

const RADIUS_MILES = 10;
const WINDOW_MS = 24 * 3_600_000;
// The sandbox's catalog prices were stamped from 10 days before its anchor (2026-06-15) on: a range around that.
const RANGE = { from: "2026-06-01", to: "2026-06-15" };

const localDate = (t: Transaction) =>
  new Date(Date.parse(t.at) + (t.localOffsetMinutes ?? 0) * 60_000).toISOString().slice(0, 10);

/** Whether the station's price was observed within the window of the fill: it held from its stamp until the walk. */
const observedAt = (s: Station, t: Transaction) =>
  s.price !== null && s.priceUpdatedAt !== null && Date.parse(t.at) >= Date.parse(s.priceUpdatedAt) - WINDOW_MS;

/** The reply's figures by brute force over the whole catalog (micro-dollars summed, rounded once). */
function bruteForce(fills: Transaction[], catalog: Station[]) {
  const byId = new Map(catalog.map((s) => [s.id, s]));
  let micro = 0n;
  let withSaving = 0;
  let compared = 0;
  let noObservation = 0;
  let noOtherStation = 0;
  const applied = { checked: 0, notChecked: 0, fillsAbove: 0, micro: 0n };
  for (const t of fills) {
    const here = byId.get(t.station.id);
    if (!here) throw new Error(`the sandbox's station ${t.station.id} is not in its catalog`);
    const paid = toMinorUnits(t.pricePerGallon, 3);
    if (observedAt(here, t)) {
      applied.checked++;
      const own = toMinorUnits(here.price ?? "0", 3);
      if (paid > own) {
        applied.fillsAbove++;
        applied.micro += (paid - own) * toMinorUnits(t.gallons, 3);
      }
    } else applied.notChecked++;
    const others = catalog.filter((s) => s.id !== here.id && distanceMiles(here, s) <= RADIUS_MILES);
    const prices = others.filter((s) => observedAt(s, t)).map((s) => toMinorUnits(s.price ?? "0", 3));
    if (others.length === 0) noOtherStation++;
    else if (prices.length === 0) noObservation++;
    if (prices.length === 0) continue;
    compared++;
    const cheapest = prices.reduce((a, b) => (b < a ? b : a));
    if (paid > cheapest) {
      micro += (paid - cheapest) * toMinorUnits(t.gallons, 3);
      withSaving++;
    }
  }
  const cents = (m: bigint) => ((m + 5_000n) / 10_000n).toString();
  return {
    couldHaveSaved: cents(micro),
    withSaving,
    compared,
    noObservation,
    noOtherStation,
    applied: { ...applied, paidAbove: cents(applied.micro) },
  };
}

/**
 * The reply once the catalog walk a first request starts in the background has been recorded, and the fills it marked
 * compared in the background (lib/bff/sync/comparisons).
 */
async function readySavings(ctx: OperationContext, query: Record<string, string>): Promise<SavingsReply> {
  for (let i = 0; i < 300; i++) {
    const reply = await runWithQuery(getSavings, ctx, query);
    if (reply.catalog.state === "ready" && reply.comparing === null) return reply;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the catalog walk was never recorded");
}

const cents = (dollars: string) => toMinorUnits(dollars, 2).toString();

describe.each(["primary", "alternative"] as const)("GET /api/savings (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);
  let all: Transaction[];
  let catalog: Station[];
  beforeAll(async () => {
    ({ all } = stack());
    catalog = await fleetApi().listAllLocations(stack().sb.keys["demo-full"], {}, { priority: "interactive" });
  });
  const inRange = (t: Transaction) =>
    t.status === "completed" && localDate(t) >= RANGE.from && localDate(t) <= RANGE.to;

  it("equals a brute-force comparison of the sandbox's fills with its catalog, and records the walk once", async () => {
    // No catalog recorded yet: the first reply says it is loading (zeros, not savings) and the walk starts.
    const first = await runWithQuery(getSavings, stack().mirrorCtx(), RANGE);
    expect(first.catalog).toMatchObject({ state: "loading", stations: 0 });
    expect(first.current).toMatchObject({ fills: 0, couldHaveSaved: "0.00" });
    const reply = await readySavings(stack().mirrorCtx(), RANGE);
    const fills = all.filter(inRange);
    const diesel = fills.filter((t) => t.product === "diesel");
    expect(diesel.length).toBeGreaterThan(20);
    const expected = bruteForce(diesel, catalog);
    // The range holds fills both sides of the prices' stamps: some compared, some not.
    expect(expected.compared).toBeGreaterThan(0);
    expect(expected.applied.checked).toBeGreaterThan(0);
    expect(expected.noObservation).toBeGreaterThan(5);
    expect(reply.range).toEqual(RANGE);
    expect(reply.radiusMiles).toBe(RADIUS_MILES);
    expect(reply.windowHours).toBe(24);
    expect(reply.coverage.complete).toBe(true);
    expect(reply.current.considered).toBe(fills.length);
    expect(reply.current.fills).toBe(expected.compared);
    expect(cents(reply.current.couldHaveSaved)).toBe(expected.couldHaveSaved);
    expect(reply.current.fillsWithSaving).toBe(expected.withSaving);
    expect(reply.current.notCompared.noObservation.fills).toBe(expected.noObservation);
    expect(reply.current.notCompared.noOtherStation.fills).toBe(expected.noOtherStation);
    expect(reply.current.unknownStation.fills).toBe(0);
    expect(reply.current.otherProduct.fills).toBe(fills.length - diesel.length);
    const { paidAbove, ...appliedCounts } = reply.current.priceApplied;
    expect(appliedCounts).toEqual({
      checked: expected.applied.checked,
      notChecked: expected.applied.notChecked,
      fillsAbove: expected.applied.fillsAbove,
    });
    expect(cents(paidAbove)).toBe(expected.applied.paidAbove);
    expect(reply.previous.range).toEqual({ from: "2026-05-17", to: "2026-05-31" });
    // Before the prices were first seen (10 days before the anchor at the earliest), nothing is compared.
    expect(reply.previous.figures).toMatchObject({ fills: 0, couldHaveSaved: "0.00" });
    expect(reply.previous.figures.notCompared.noObservation.fills).toBeGreaterThan(0);
    expect(reply.top.length).toBeGreaterThan(0);
    for (const missed of reply.top) {
      expect(catalog.some((s) => s.id === missed.cheaper.id)).toBe(true);
      expect(missed.cheaper.id).not.toBe(missed.station.id);
    }

    const mirror = stack().mirror.access;
    const recorded = await readCatalog(mirror.store, mirror.customerId);
    expect(recorded.stations).toHaveLength(catalog.length);
    expect(reply.catalog.stations).toBe(catalog.length);
    // Asked again within CATALOG_REFRESH_HOURS: the recorded catalog is not walked again.
    const again = await runWithQuery(getSavings, stack().mirrorCtx(), RANGE);
    expect(again.catalog.lastWalkAt).toBe(reply.catalog.lastWalkAt);
    expect(again.current).toEqual(reply.current);
  });

  it("narrows to one driver or one station", async () => {
    const sample = all.find((t) => inRange(t) && t.product === "diesel");
    if (!sample) throw new Error("no diesel fill in the range");
    const driver = await readySavings(stack().mirrorCtx(), { ...RANGE, driver: sample.driver.id });
    const driverFills = all.filter((t) => inRange(t) && t.product === "diesel" && t.driver.id === sample.driver.id);
    expect(driver.scope).toEqual({ driverId: sample.driver.id, stationId: null });
    expect(driver.current.fills).toBe(bruteForce(driverFills, catalog).compared);
    expect(cents(driver.current.couldHaveSaved)).toBe(bruteForce(driverFills, catalog).couldHaveSaved);
    const station = await readySavings(stack().mirrorCtx(), { ...RANGE, station: sample.station.id });
    const stationFills = all.filter((t) => inRange(t) && t.product === "diesel" && t.station.id === sample.station.id);
    expect(station.current.fills).toBe(bruteForce(stationFills, catalog).compared);
    expect(cents(station.current.couldHaveSaved)).toBe(bruteForce(stationFills, catalog).couldHaveSaved);
  });

  it.each<[Record<string, string>, RegExp]>([
    [{ quarter: "2026-Q5" }, /quarter/i],
    [{ from: "2026-05-31", to: "2026-05-01" }, /after|before/i],
    [{ ...RANGE, driver: "D-1", station: "S-1" }, /not both/],
    [{ ...RANGE, driver: "no spaces please" }, /The driver \(driver\) must be an id/],
  ])("refuses %o with a sentence (400)", async (query, message) => {
    const error = await rejection(runWithQuery(getSavings, stack().mirrorCtx(), query));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(message);
  });

  it("needs the local copy: 409 with a sentence when the session has none", async () => {
    const error = await rejection(runWithQuery(getSavings, stack().upstreamCtx(), RANGE));
    expect(error.code).toBe("mirror_needed");
    expect(error.message.length).toBeGreaterThan(20);
  });
});
