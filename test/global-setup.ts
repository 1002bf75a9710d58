import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { openDatabase } from "../sandbox/db/open";
import { TEST_ANCHOR, TEST_SEED, TEST_STATIONS, TEST_TRANSACTIONS } from "../sandbox/test/constants";
import { ensureTools, HAPROXY, POSTGRESQL, REDIS_SERVER } from "../scripts/system-packages";
import { ensureBuilt } from "./app-process";

declare module "vitest" {
  export interface ProvidedContext {
    sandboxTemplateDb: string;
  }
}

/** Seeds one template database per test run; every test copies it, so each starts from a fresh SQLite file. */
export default async function setup(project: TestProject): Promise<() => void> {
  // Real parts the tests start themselves: on a fresh machine `npm test` installs them (as root) or says what to run.
  const tools = ensureTools([REDIS_SERVER, POSTGRESQL, HAPROXY], "[vitest]");
  if (!tools.ok) throw new Error(tools.message);
  const dir = mkdtempSync(join(tmpdir(), "ffd-sandbox-"));
  const path = join(dir, "template.db");
  const { db } = openDatabase({
    path,
    seed: { seed: TEST_SEED, anchor: TEST_ANCHOR, stations: TEST_STATIONS, transactions: TEST_TRANSACTIONS },
  });
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("journal_mode = DELETE");
  db.close();
  project.provide("sandboxTemplateDb", path);
  // The app is built once here, before test files run in parallel, so no two of them build it at the same time.
  // SKIP_APP_BUILD=1 skips it when running only tests that do not start the app.
  if (process.env.SKIP_APP_BUILD !== "1") await ensureBuilt();
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
