import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isFleetApiError } from "@/lib/fleet-api";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { BffError } from "../http/errors";
import { runWithQuery } from "../http/operation";
import { operationContextForTest, useUpstreamForTest } from "../http/test-context";
import { exportProgress } from "../transactions/export-progress";
import { getTransaction } from "../transactions/get-transaction";
import { listTransactions } from "../transactions/list-transactions";
import { getAccount } from "./get-account";

// The account, transaction detail and export progress operations as plain functions over the real sandbox.

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe.each(["primary", "alternative"] as const)(
  "account and detail operations without Next (%s profile)",
  (profile) => {
    let sb: SandboxProcess;
    beforeAll(async () => {
      sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
      useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
    });
    afterAll(() => sb.stop());

    it("answers the account with its 30-day totals, from the upstream or computed", async () => {
      const account = await runWithQuery(getAccount, operationContextForTest(sb.keys["demo-full"]), {});
      expect(account.name).toEqual(expect.any(String));
      expect(account.totals30d).not.toBeNull();
    });

    it("answers a key without the transactions scope its account, without computed totals", async () => {
      const account = await runWithQuery(getAccount, operationContextForTest(sb.keys["demo-no-transactions"]), {});
      expect(account.name).toEqual(expect.any(String));
      expect(account.totals30d?.source ?? "upstream").not.toBe("computed");
    });

    it("refuses an unknown query parameter, and an export id of the wrong shape", async () => {
      const ctx = operationContextForTest(sb.keys["demo-full"]);
      const unknown = await rejection(runWithQuery(getAccount, ctx, { page: "1" }));
      expect(unknown).toBeInstanceOf(BffError);
      expect((unknown as BffError).message).toBe("Unknown query parameter: page.");
      const shape = await rejection(runWithQuery(exportProgress, ctx, { exportId: "x" }));
      expect((shape as BffError).message).toBe("exportId must be 8–64 letters, digits or dashes.");
      const none = await rejection(runWithQuery(exportProgress, ctx, { exportId: "not-running-1" }));
      expect((none as BffError).status).toBe(404);
    });

    it("reads one transaction in full, and passes on the upstream's 404 for an unknown one", async () => {
      const ctx = operationContextForTest(sb.keys["demo-full"]);
      const [first] = (await runWithQuery(listTransactions, ctx, { limit: "1" })).items;
      if (first === undefined) throw new Error("the sandbox has transactions");
      expect((await getTransaction.run(ctx, first.id)).id).toBe(first.id);
      const error = await rejection(getTransaction.run(ctx, "no-such-transaction-0"));
      expect(isFleetApiError(error) && error.code).toBe("not_found");
    });

    it("passes on the upstream's refusal of a revoked key", async () => {
      const error = await rejection(runWithQuery(getAccount, operationContextForTest(sb.keys["demo-revoked"]), {}));
      expect(isFleetApiError(error) && ["unauthenticated", "invalid_credentials"].includes(error.code)).toBe(true);
    });
  },
);
