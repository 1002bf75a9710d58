import { relative } from "node:path";

import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The slowest test files (seconds alone on 2 cores, from CI's vitest.json), longest first. On a fresh clone vitest
 * has no durations cached and starts the largest files first; one of these starting last would hold the whole run
 * open for minutes after the other forks are done. A file missing from the list just takes its usual place.
 */
export const SLOWEST_FIRST = [
  "lib/bff/platform/cluster.test.ts", // 311
  "lib/bff/platform/pile-up.test.ts", // 199
  "lib/mirror/mirror-sync.test.ts", // 120
  "scripts/mirror.test.ts", // 78
  "lib/bff/platform/shared-state.test.ts", // 46
  "lib/bff/transactions/bff-large-exports.test.ts", // 43
  "sandbox/cli.test.ts", // 42
  "bench/run-processes.test.ts", // 41
  "lib/bff/sync/service.test.ts", // 38
  "lib/bff/session/session-revocation.test.ts", // 35
];

/** vitest's own order (failed first, then longest by its cache, else largest), with SLOWEST_FIRST ahead of it. */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = SLOWEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId).replaceAll("\\", "/"));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
