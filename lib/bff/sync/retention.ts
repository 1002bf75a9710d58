import "server-only";

import { MirrorStore, purgeUnused } from "@/lib/mirror";

import type { MirrorConfig } from "../platform/config-mirror";

const DAY_MS = 86_400_000;

/**
 * Deletes the mirrors unused for MIRROR_RETENTION_DAYS, on a store handle of its own (opened, migrated, closed), so it
 * can run at the app's start before any request: the process's mirror service (./instance) is built by the routes'
 * own modules, whose upstream client must not be created from the start-up bundle (its error classes would differ).
 */
async function purgeUnusedMirrors(config: MirrorConfig, nowMs: number): Promise<string[]> {
  const store = await MirrorStore.open({ databaseUrl: config.databaseUrl, path: config.path });
  try {
    return await purgeUnused(store, nowMs - config.retentionMs);
  } finally {
    await store.close();
  }
}

/** At start (instrumentation-node.ts) and then daily: the retention rule, logged in one line when it deleted some. */
export function scheduleRetention(config: MirrorConfig, log: (message: string) => void): void {
  const run = () =>
    purgeUnusedMirrors(config, Date.now()).then(
      (purged) => {
        if (purged.length > 0)
          log(`The fleet mirror deleted ${String(purged.length)} customer copies unused for the retention period.`);
      },
      (error: unknown) => {
        log(`The fleet mirror's retention check failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  void run();
  setInterval(() => void run(), DAY_MS).unref();
}
