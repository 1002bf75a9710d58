import { afterAll, beforeAll } from "vitest";

import { operationContextForTest, useUpstreamForTest } from "@/lib/bff/http/test-context";
import type { TieOutStack } from "@/lib/bff/tie-out/sources";
import { syncedMirrorForTest } from "@/lib/bff/transactions/test-mirror";
import { everyTransaction } from "@/test/mirror-serve-stack";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

type MirrorKind = "sqlite" | "postgresql";

/**
 * Tests only (lib/bff/tie-out): a sandbox of the profile over real HTTP, a mirror of demo-full filled by a real sync
 * on the store asked for (a temporary SQLite file, or a real PostgreSQL server started for the file), the upstream's
 * whole list (to pick drivers, cards, states and products that exist), and a context that answers from the mirror.
 * A few purchases are added "now" first, so the rolling 30 days are not empty. Started before the file's tests,
 * stopped after.
 */

export function tieOutStackFor(profile: "primary" | "alternative", kind: MirrorKind): () => TieOutStack {
  let stack: (TieOutStack & { sb: SandboxProcess }) | undefined;
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    const sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    await sb.addTransactions(12);
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
    if (kind === "postgresql") postgres = await startPostgresServer();
    const databaseUrl = postgres === undefined ? undefined : await postgres.createDatabase(`tie_out_${profile}`);
    const mirror = await syncedMirrorForTest(sb.keys["demo-full"], databaseUrl === undefined ? {} : { databaseUrl });
    const all = await everyTransaction(sb.keys["demo-full"]);
    stack = {
      sb,
      mirror,
      all,
      ctx: () => operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(mirror.access) }),
    };
  });
  afterAll(async () => {
    await stack?.mirror.close();
    await stack?.sb.stop();
    await postgres?.stop();
  });
  return () => {
    if (stack === undefined) throw new Error("the tie-out stack is used before its beforeAll ran");
    return stack;
  };
}
