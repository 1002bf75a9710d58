import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import { rejection } from "@/test/mirror-serve-stack";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { MirrorService } from "../sync/service";
import { sessionFor, until } from "../sync/service-test-helpers";
import { appRoutes, operationTable, pathOf, TRANSACTIONS_DERIVED } from "./operation-table";
import { refuseWithoutTransactionsScope } from "./scope-guard";

// Issue 24 item 1: the list of transactions-derived routes comes from the operation table (every operation module,
// every app/api route file), so a new route cannot be left out; a key refused the transactions scope gets 403 from
// each of them, in both profiles, over the real sandbox with a real mirror service (SQLite) — while the other key of
// the same customer fills the local copy.

const isDerived = (route: string) => TRANSACTIONS_DERIVED.some((re) => re.test(pathOf(route)));

describe("the operation table", () => {
  it("holds every route of app/api", async () => {
    const routes = new Set((await operationTable()).map((op) => op.route));
    const missing = appRoutes().filter((r) => !routes.has(r));
    expect(appRoutes().length).toBeGreaterThan(25);
    expect(missing).toEqual([]);
  });

  it('marks every operation under a transactions-derived route reads: "transactions", and no other', async () => {
    const table = await operationTable();
    const unmarked = table.filter(
      (op) => isDerived(op.route) && (op.auth !== "session" || op.reads !== "transactions"),
    );
    expect(unmarked.map((op) => op.route)).toEqual([]);
    const stray = table.filter((op) => op.auth === "session" && op.reads === "transactions" && !isDerived(op.route));
    expect(stray.map((op) => op.route)).toEqual([]);
    // What the review named: list, totals, summary, facets, export, drill-downs, exceptions, savings, jurisdictions…
    expect(table.filter((op) => isDerived(op.route)).length).toBe(18);
  });
});

describe.each(["primary", "alternative"] as const)(
  "transactions-derived routes and a key without the scope (%s)",
  (profile) => {
    let upstream: SandboxProcess;
    let dir: string;
    let service: MirrorService;
    let client: FleetApiClient;

    beforeAll(async () => {
      upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
      dir = mkdtempSync(join(tmpdir(), "ffd-op-table-"));
      client = new FleetApiClient({
        baseUrl: upstream.baseUrl,
        budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
      });
      service = new MirrorService({
        config: { enabled: true, path: join(dir, "mirror.db"), databaseUrl: undefined, retentionMs: 3_600_000 },
        client,
        windowMs: 60_000,
        idleMs: 3_600_000,
        absoluteMs: 3_600_000,
        now: () => Date.now(),
        endSessions: () => Promise.resolve(),
        warn: () => undefined,
      });
    });
    afterAll(async () => {
      await service.close();
      await upstream.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("answers 403 scope_denied on every one of them to that key, and lets the full key through", async () => {
      const full = await sessionFor(client, upstream.keys["demo-full"]);
      await service.signedIn(full);
      await until(
        () => service.gate(full),
        (access) => access !== null,
      );
      const partial = await sessionFor(client, upstream.keys["demo-no-transactions"]);
      await service.signedIn(partial);
      const derived = (await operationTable()).filter((op) => isDerived(op.route));
      for (const op of derived) {
        if (op.auth !== "session") throw new Error(`${op.route} must be a signed-in operation`);
        const error = await rejection(refuseWithoutTransactionsScope(op, partial, service));
        expect({ route: op.route, status: error.status, code: error.code }).toEqual({
          route: op.route,
          status: 403,
          code: "scope_denied",
        });
        // The upstream's naming, as its own refusal would say it: "read" in the primary shape.
        const scope = profile === "primary" ? "read" : "transactions";
        expect(error.message).toMatch(new RegExp(`lacks the ${scope} scope.*Ask your Fleet Fuel administrator`));
        await expect(refuseWithoutTransactionsScope(op, full, service)).resolves.toBeUndefined();
      }
    });
  },
);
