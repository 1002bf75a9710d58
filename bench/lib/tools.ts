/**
 * The Debian packages each part runs (redis-server, PostgreSQL, Chromium), checked before the part starts anything:
 * installed with apt when missing and running as root, as `npm test` does (scripts/system-packages.ts); otherwise the
 * part is skipped with a *not measured* row that names the package and the command to install it, instead of dying
 * halfway with processes left running.
 */
import { chromiumTool, ensureTools, POSTGRESQL, REDIS_SERVER, type SystemTool } from "@/scripts/system-packages";

import type { PartName } from "./report";

/** What each part starts besides node processes (the sandbox, the app): absent means nothing. */
function toolsOfPart(part: PartName): SystemTool[] {
  switch (part) {
    case "cluster-budget":
    case "cluster":
      return [REDIS_SERVER];
    case "insights-exceptions":
    case "insights-jurisdictions":
    case "insights-drilldowns":
    case "insights-savings":
      return [POSTGRESQL];
    case "pages":
    case "map":
    case "a11y":
    case "economy":
      return [chromiumTool()];
    default:
      return [];
  }
}

/** null when the part can run; otherwise why not, naming the missing package(s) and how to install them. */
export function missingToolsOfPart(part: PartName, asRoot?: boolean): string | null {
  const tools = toolsOfPart(part);
  if (tools.length === 0) return null;
  const result = ensureTools(tools, "[bench]", asRoot);
  return result.ok ? null : result.message;
}
