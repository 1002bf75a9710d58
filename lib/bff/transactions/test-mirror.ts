import "server-only";

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Credentials } from "@/lib/fleet-api";
import { MemorySyncLock, MirrorStore, MirrorSync } from "@/lib/mirror";

import type { MirrorAccess } from "../platform/mirror-access";
import { fleetApi } from "../platform/upstream";
import { BackgroundComparisons } from "../sync/comparisons";

/**
 * Tests only: a customer's mirror as the gate hands it to operations, built for real: a MirrorStore (a temporary
 * SQLite file, or the PostgreSQL URL given) filled by a whole `MirrorSync.run` (head, backfill, verification) over
 * the process's upstream client (`useUpstreamForTest` points it at a sandbox). `requestFresh` counts its calls;
 * `comparePending` runs the app's background comparisons (lib/bff/sync/comparisons) over this store, and
 * `comparisonsSettled` waits for them.
 */
export interface TestMirror {
  access: MirrorAccess;
  /** How often an operation asked for a fresh head sync. */
  freshRequests: () => number;
  /** Computes every pending savings comparison in the background loop and waits for it (as the sync's end does). */
  comparisonsSettled: () => Promise<void>;
  close: () => Promise<void>;
}

export async function syncedMirrorForTest(
  credentials: Credentials,
  options: { customerId?: string; databaseUrl?: string } = {},
): Promise<TestMirror> {
  const dir = mkdtempSync(join(tmpdir(), "ffd-mirror-serve-"));
  const store = await MirrorStore.open(
    options.databaseUrl === undefined ? { path: join(dir, "mirror.db") } : { databaseUrl: options.databaseUrl },
  );
  const customerId = options.customerId ?? "PFL";
  const outcome = await new MirrorSync({ store, client: fleetApi() }).run(customerId, credentials);
  if (outcome.status !== "done") throw new Error(`the test mirror's sync ended ${outcome.status}`);
  let fresh = 0;
  const comparisons = new BackgroundComparisons(() => Promise.resolve(store), {
    lock: new MemorySyncLock(),
    warn: (fields, message) => {
      throw new Error(`${message}: ${JSON.stringify(fields)}`);
    },
  });
  return {
    access: {
      store,
      customerId,
      state: outcome.state,
      requestFresh: () => {
        fresh++;
      },
      comparePending: () => {
        comparisons.kick(customerId);
      },
    },
    freshRequests: () => fresh,
    comparisonsSettled: async () => {
      comparisons.kick(customerId);
      await comparisons.settled(customerId);
    },
    close: async () => {
      await comparisons.settled(customerId);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
