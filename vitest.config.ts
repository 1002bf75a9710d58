import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

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
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["./test/global-setup.ts"],
    // .ci/run sets CI_RESULTS to collect the counts of `npm test` (the README's command) from JSON.
    reporters: process.env.CI_RESULTS ? ["default", "json"] : ["default"],
    outputFile: { json: ".ci-results/vitest.json" },
  },
});
