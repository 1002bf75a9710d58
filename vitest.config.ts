import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

import { SlowestFirstSequencer } from "./test/sequencer";

/** Test files run side by side in this many forks (issue 26: the suite in well under 30 minutes on 2 cores). */
const TEST_FORKS = 4;

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside a React Server Component bundle; under vitest it is just a marker.
      "server-only": fileURLToPath(new URL("./test/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    environment: "node",
    // A bound for a hung test, not a timing check: generous, since a file shares the cores with the forks beside it.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // More forks than the 2 cores: most files wait on HTTP, SQLite, PostgreSQL, Redis and child processes, not the CPU
    // (vitest's default, cores − 1, ran one file at a time). Files never share a port (test/net.ts freePort), a
    // database file (mkdtemp folders, one sandbox copy each; startApp gives each app its own SESSION_DB) or a
    // Redis/PostgreSQL server (each starts its own).
    maxWorkers: TEST_FORKS,
    // Under CI (CI=1, as .ci/run sets it) a failed test is run once more, as Playwright's journeys are: a test that
    // fails twice is a failure; one that passes on its second run is reported (vitest prints the retry) and counted.
    retry: process.env.CI ? 1 : 0,
    sequence: { sequencer: SlowestFirstSequencer },
    globalSetup: ["./test/global-setup.ts"],
    // .ci/run sets CI_RESULTS to collect the counts of `npm test` (the README's command) from JSON.
    reporters: process.env.CI_RESULTS ? ["default", "json"] : ["default"],
    outputFile: { json: ".ci-results/vitest.json" },
  },
});
