// The configuration is parsed at startup so bad values stop the start with every problem named, instead of failing
// on the first request. (A throw from register() alone does not stop `next start`.)
import { ConfigError, getConfig } from "@/lib/bff/platform/config";
import { watchForOtherInstances } from "@/lib/bff/platform/instance-heartbeat";
import { scheduleRetention } from "@/lib/bff/sync/retention";
import { narrowExistingPrivateFiles } from "@/lib/private-files";

try {
  getConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Database files left by an earlier run (or made by another program) that other users can read are narrowed to
// owner-only now, with a warning, even when this run will not open them (the mirror off, sessions in Redis).
narrowExistingPrivateFiles([getConfig().session.dbPath, getConfig().mirror.path], (message) => {
  console.warn(message);
});

// The mirror's store opens at start (its migrations run) and mirrors unused past MIRROR_RETENTION_DAYS are deleted,
// then daily. Only the store is touched here: the mirror service itself is built by the routes (lib/bff/sync).
if (getConfig().mirror.enabled)
  scheduleRetention(getConfig().mirror, (message) => {
    console.warn(message);
  });

// Several instances without REDIS_URL would each keep the whole budget: warn when another one is seen (one log line).
watchForOtherInstances();
