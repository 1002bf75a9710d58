// The configuration is parsed at startup so bad values stop the start with every problem named, instead of failing
// on the first request. (A throw from register() alone does not stop `next start`.)
import { ConfigError, getConfig } from "@/lib/bff/config";

try {
  getConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
