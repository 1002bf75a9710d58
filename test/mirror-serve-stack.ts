import { afterAll, beforeAll } from "vitest";

import { BffError } from "@/lib/bff/http/errors";
import type { OperationContext } from "@/lib/bff/http/operation";
import { operationContextForTest, useUpstreamForTest } from "@/lib/bff/http/test-context";
import { fleetApi } from "@/lib/bff/platform/upstream";
import { syncedMirrorForTest, type TestMirror } from "@/lib/bff/transactions/test-mirror";
import type { Transaction } from "@/lib/model";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

/**
 * Tests only (lib/bff/transactions/*.test.ts): a sandbox of the profile (budget out of the way), the process's
 * upstream pointed at it, a real mirror of demo-full synced from it (SQLite), and the upstream's whole list — started
 * before the file's tests, stopped after. `mirrorCtx` answers from the mirror, `upstreamCtx` from the upstream.
 */
export interface MirrorServeStack {
  sb: SandboxProcess;
  mirror: TestMirror;
  /** The upstream's whole list, newest first. */
  all: Transaction[];
  mirrorCtx: () => OperationContext;
  upstreamCtx: () => OperationContext;
}

/** Every transaction of a key, walked from the upstream: what a test compares the local copy's answers with. */
export async function everyTransaction(key: Parameters<ReturnType<typeof fleetApi>["iterateTransactions"]>[0]) {
  const all: Transaction[] = [];
  for await (const t of fleetApi().iterateTransactions(key, {}, { priority: "interactive" })) all.push(t);
  return all;
}

export function mirrorServeStackFor(profile: "primary" | "alternative"): () => MirrorServeStack {
  let stack: MirrorServeStack | undefined;
  beforeAll(async () => {
    const sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
    const mirror = await syncedMirrorForTest(sb.keys["demo-full"]);
    const all = await everyTransaction(sb.keys["demo-full"]);
    stack = {
      sb,
      mirror,
      all,
      mirrorCtx: () => operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(mirror.access) }),
      upstreamCtx: () => operationContextForTest(sb.keys["demo-full"]),
    };
  });
  afterAll(async () => {
    await stack?.mirror.close();
    await stack?.sb.stop();
  });
  return () => {
    if (stack === undefined) throw new Error("the mirror-serve stack is used before its beforeAll ran");
    return stack;
  };
}

/** The BffError a promise rejects with (anything else is rethrown; a fulfilment fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<BffError> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  if (!(error instanceof BffError)) throw error;
  return error;
}
