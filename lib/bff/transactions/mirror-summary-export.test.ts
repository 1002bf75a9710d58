import { beforeAll, describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { mirrorServeStackFor, rejection } from "@/test/mirror-serve-stack";
import type { SandboxProcess } from "@/test/sandbox-process";

import { loadXlsx } from "../files/fixtures/xlsx";
import { runWithQuery } from "../http/operation";
import { operationContextForTest } from "../http/test-context";
import { exportTransactionsFile } from "./export-transactions";
import type { TestMirror } from "./test-mirror";
import { transactionFacets } from "./transaction-facets";
import { transactionSummary } from "./transaction-summary";

// The summary, the export and the facets served from a real mirror (a real MirrorSync over the real sandbox, SQLite)
// against the same operations served by the upstream, in both profiles.

const MAY = { from: "2026-05-01", to: "2026-05-30" };
const APRIL = { from: "2026-04-01", to: "2026-04-30" };

function omit<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !(keys as readonly string[]).includes(k))) as Omit<
    T,
    K
  >;
}

describe.each(["primary", "alternative"] as const)(
  "summary, export and facets from the mirror (%s profile)",
  (profile) => {
    const stack = mirrorServeStackFor(profile);
    let sb: SandboxProcess;
    let mirror: TestMirror;
    let all: Transaction[];
    beforeAll(() => {
      ({ sb, mirror, all } = stack());
    });
    const mirrorCtx = () => stack().mirrorCtx();
    const upstreamCtx = () => stack().upstreamCtx();
    const asOf = () => new Date(mirror.access.state.lastHeadSyncMs ?? 0).toISOString();

    it("summarizes 30 days exactly as the upstream walk does, with the previous 30 days", async () => {
      const [local, upstream, april] = await Promise.all([
        runWithQuery(transactionSummary, mirrorCtx(), MAY),
        runWithQuery(transactionSummary, upstreamCtx(), MAY),
        runWithQuery(transactionSummary, upstreamCtx(), APRIL),
      ]);
      expect(local.origin).toEqual({ source: "mirror", asOf: asOf(), note: null });
      expect(upstream.origin).toEqual({ source: "upstream", asOf: null, note: null });
      expect(upstream.previous).toBeNull();
      expect(upstream.totals.transactions).toBeGreaterThan(0);
      // The totals, daily series and products are UTC days on both; the rankings and the change are by local date
      // from the mirror (/drivers' metric, issue 25) and by UTC day from the walk, each saying which (rankingMetric).
      const rankings = ["topDrivers", "topStations", "comparison", "rankingMetric"] as const;
      const { origin: _o1, previous, ...localSummary } = local;
      const { origin: _o2, previous: _p, ...upstreamSummary } = upstream;
      expect(omit(localSummary, rankings)).toEqual(omit(upstreamSummary, rankings));
      expect([local.rankingMetric, upstream.rankingMetric]).toEqual(["spend.local-date", "spend.utc-day"]);
      expect(upstream.comparison).toBeNull();
      expect(previous).toEqual({ ...APRIL, totals: april.totals });
    });

    it("summarizes two years from the mirror; the upstream walk still refuses more than 366 days", async () => {
      const twoYears = { from: "2024-06-01", to: "2026-05-31" };
      const local = await runWithQuery(transactionSummary, mirrorCtx(), twoYears);
      expect(local.daily).toHaveLength(730);
      const inRange = all.filter((t) => t.at >= "2024-06-01" && t.at < "2026-06-01" && t.status !== "failed");
      expect(local.totals.transactions).toBe(inRange.length);
      expect(local.previous?.from).toBe("2022-06-02");
      const refused = await rejection(runWithQuery(transactionSummary, upstreamCtx(), twoYears));
      expect(refused.status).toBe(400);
      expect(refused.message).toContain("is longer than 366 days");
    });

    it("gives no previous period the mirror does not cover, and leaves a range it does not cover to the upstream", async () => {
      const state = mirror.access.state;
      const partial = {
        ...mirror.access,
        state: {
          ...state,
          coverageFromMs: Date.parse("2026-05-01T00:00:00Z"),
          backfill: { ...state.backfill, complete: false },
        },
      };
      const ctx = () => operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(partial) });
      const may = await runWithQuery(transactionSummary, ctx(), MAY);
      expect(may.origin.source).toBe("mirror");
      expect(may.previous).toBeNull();
      const april = await runWithQuery(transactionSummary, ctx(), APRIL);
      expect(april.origin).toEqual({
        source: "upstream",
        asOf: null,
        note: "The local copy of your transactions does not reach back to 2026-04-01 yet (it reaches back to 2026-05-01 so far), so these come from the Fleet Fuel API.",
      });
      expect(april.previous).toBeNull();
    });

    it("exports the upstream's rows from the mirror, the file saying when its data is from", async () => {
      const q = { ...MAY, tz: "America/Denver", status: "completed", format: "csv" };
      const [local, upstream] = await Promise.all([
        runWithQuery(exportTransactionsFile, mirrorCtx(), q),
        runWithQuery(exportTransactionsFile, upstreamCtx(), q),
      ]);
      expect(local.headers.get("X-Data-As-Of")).toBe(asOf());
      expect(upstream.headers.get("X-Data-As-Of")).toBeNull();
      expect(local.headers.get("X-Export-Total")).toBe(upstream.headers.get("X-Export-Total"));
      // The instant is in the name; the CSV itself is the header and the rows only, the same from both sources.
      expect(local.headers.get("Content-Disposition")).toContain(
        `_data-as-of-${asOf().slice(0, 19).replace(/:/g, "")}Z_`,
      );
      const localLines = (await local.text()).split("\r\n");
      const upstreamLines = (await upstream.text()).split("\r\n");
      expect(localLines).toEqual(upstreamLines);
      expect(upstreamLines.length).toBeGreaterThan(10);
      expect(upstreamLines[0]).toContain("Reference"); // line 1 stays the column header
    });

    it("exports with the mirror-only filters and states the sync time in the XLSX About sheet", async () => {
      const driver = all[0]?.driver.id ?? "";
      const reply = await runWithQuery(exportTransactionsFile, mirrorCtx(), { driver, sort: "amount", format: "xlsx" });
      const workbook = await loadXlsx(Buffer.from(await reply.arrayBuffer()));
      const sheet = workbook.getWorksheet("Transactions");
      expect(sheet?.actualRowCount).toBe(1 + all.filter((t) => t.driver.id === driver).length);
      const about = workbook.getWorksheet("About");
      const rows: string[] = [];
      about?.eachRow((row) => rows.push(`${row.getCell(1).text}: ${row.getCell(2).text}`));
      expect(rows).toContain(`Data as of (UTC): ${asOf()}`);
      const refused = await rejection(runWithQuery(exportTransactionsFile, upstreamCtx(), { driver, format: "csv" }));
      expect(refused.status).toBe(409);
      expect(refused.message).toContain("Filtering by driver needs the local copy of your transactions");
    });

    it("lists the facets of the customer's rows; without a mirror, empty lists from the upstream origin", async () => {
      const facets = await runWithQuery(transactionFacets, mirrorCtx(), {});
      const distinct = (values: (string | null)[]) =>
        [...new Set(values.filter((v): v is string => v !== null))].sort();
      expect(facets.origin.source).toBe("mirror");
      expect(facets.drivers.map((d) => d.id).sort()).toEqual(distinct(all.map((t) => t.driver.id)));
      expect(facets.stations.map((s) => s.id).sort()).toEqual(distinct(all.map((t) => t.station.id)));
      expect(facets.cards).toEqual(distinct(all.map((t) => t.card.last4)));
      expect(facets.trucks).toEqual(distinct(all.map((t) => t.driver.truckId)));
      expect(facets.states).toEqual(distinct(all.map((t) => t.station.state)));
      expect(facets.products).toEqual(distinct(all.map((t) => t.product)));
      const sample = all[0];
      expect(facets.drivers).toContainEqual({
        id: sample?.driver.id,
        name: sample?.driver.name,
        truck: sample?.driver.truckId,
      });
      expect(await runWithQuery(transactionFacets, upstreamCtx(), {})).toEqual({
        drivers: [],
        cards: [],
        trucks: [],
        stations: [],
        states: [],
        products: [],
        origin: { source: "upstream", asOf: null, note: null },
      });
    });
  },
);
