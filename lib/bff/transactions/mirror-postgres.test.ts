import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { localDateOf } from "@/lib/mirror";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { runWithQuery } from "../http/operation";
import { operationContextForTest, useUpstreamForTest } from "../http/test-context";
import { listDrivers } from "../insights/drilldown-lists";
import { fleetApi } from "../platform/upstream";
import { exportTransactionsFile } from "./export-transactions";
import { listTransactions } from "./list-transactions";
import { syncedMirrorForTest, type TestMirror } from "./test-mirror";
import { transactionSummary } from "./transaction-summary";

// The one PostgreSQL run of the mirror-served operations (the other files use SQLite): a real server started in a
// temporary directory, a mirror filled by a real sync over the sandbox; the list, summary and export equal the
// upstream's.

describe("the list, summary and export from a mirror on PostgreSQL (primary profile)", () => {
  let postgres: PostgresServer;
  let sb: SandboxProcess;
  let mirror: TestMirror;
  const mirrorCtx = () =>
    operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(mirror.access) });
  const upstreamCtx = () => operationContextForTest(sb.keys["demo-full"]);

  beforeAll(async () => {
    postgres = await startPostgresServer();
    sb = await startSandboxProcess({ args: ["--budget", "100000"] });
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
    mirror = await syncedMirrorForTest(sb.keys["demo-full"], {
      databaseUrl: await postgres.createDatabase("mirror_serve"),
    });
  });
  afterAll(async () => {
    await mirror.close();
    await sb.stop();
    await postgres.stop();
  });

  it("answers the upstream's rows, totals and file", async () => {
    const q = { from: "2026-04-01", to: "2026-05-31", tz: "America/New_York", status: "completed", page: "2" };
    const [local, upstream] = await Promise.all([
      runWithQuery(listTransactions, mirrorCtx(), q),
      runWithQuery(listTransactions, upstreamCtx(), q),
    ]);
    expect(local.origin.source).toBe("mirror");
    expect({ ...local, origin: null }).toEqual({ ...upstream, origin: null });
    const range = { from: "2026-05-01", to: "2026-05-30" };
    const [summary, walked] = await Promise.all([
      runWithQuery(transactionSummary, mirrorCtx(), range),
      runWithQuery(transactionSummary, upstreamCtx(), range),
    ]);
    // Rankings and the change are by local date from the mirror (issue 25), by UTC day from the walk: compared apart.
    const utcOnly = {
      origin: null,
      previous: null,
      topDrivers: [],
      topStations: [],
      comparison: null,
      rankingMetric: null,
    };
    expect({ ...summary, ...utcOnly }).toEqual({ ...walked, ...utcOnly });
    expect(summary.rankingMetric).toBe("spend.local-date");
    const file = { search: "a", format: "csv" };
    const [localFile, upstreamFile] = await Promise.all([
      runWithQuery(exportTransactionsFile, mirrorCtx(), file).then((r) => r.text()),
      runWithQuery(exportTransactionsFile, upstreamCtx(), file).then((r) => r.text()),
    ]);
    // The same bytes: the CSV is the header and the rows only (the data-as-of instant is in the file's name).
    expect(localFile).toBe(upstreamFile);
  });

  it("ranks the overview's drivers as /drivers does and counts the settling days on PostgreSQL (issue 25)", async () => {
    const range = { from: "2026-05-01", to: "2026-05-30" };
    const [summary, drivers] = await Promise.all([
      runWithQuery(transactionSummary, mirrorCtx(), range),
      runWithQuery(listDrivers, mirrorCtx(), range),
    ]);
    expect(summary.topDrivers.map((d) => [d.id, d.transactions, d.amount])).toEqual(
      drivers.rows.slice(0, summary.topDrivers.length).map((r) => [r.key, r.purchases, r.amount]),
    );
    const pendingDays: string[] = [];
    for await (const t of fleetApi().iterateTransactions(sb.keys["demo-full"], {}, { priority: "interactive" })) {
      const day = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
      if (t.status === "pending" && day >= range.from && day <= range.to) pendingDays.push(day);
    }
    const settling = { purchases: pendingDays.length, days: new Set(pendingDays).size };
    expect(drivers.settling).toEqual(settling);
    expect(summary.comparison?.settling).toEqual(settling);
  });
});
