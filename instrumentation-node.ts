// The configuration is parsed at startup so bad values stop the start with every problem named, instead of failing
// on the first request. (A throw from register() alone does not stop `next start`.)
import { ConfigError, getConfig } from "@/lib/bff/config";
import { mirrorService } from "@/lib/bff/mirror/instance";

try {
  getConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// The mirror's store opens at start: its migrations run and mirrors unused past MIRROR_RETENTION_DAYS are deleted.
if (getConfig().mirror.enabled)
  mirrorService()
    .start()
    .catch((error: unknown) => {
      console.error(
        `The fleet mirror could not open its store: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
