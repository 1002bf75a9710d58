import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/open";
import { TEST_ANCHOR, TEST_SEED, TEST_STATIONS, TEST_TRANSACTIONS } from "./constants";

declare module "vitest" {
  export interface ProvidedContext {
    sandboxTemplateDb: string;
  }
}

/** Seeds one template database per test run; every test copies it, so each starts from a fresh SQLite file. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "ffd-sandbox-"));
  const path = join(dir, "template.db");
  const { db } = openDatabase({ path, seed: { seed: TEST_SEED, anchor: TEST_ANCHOR, stations: TEST_STATIONS, transactions: TEST_TRANSACTIONS } });
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("journal_mode = DELETE");
  db.close();
  project.provide("sandboxTemplateDb", path);
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
