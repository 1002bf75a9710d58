import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PROFILES } from "./config";
import { startTestSandbox, type TestSandbox } from "./test/harness";

const run = promisify(execFile);

describe.each(PROFILES)("OpenAPI 3.1 document (%s profile)", (profile) => {
  let sb: TestSandbox;
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    sb = await startTestSandbox({ profile });
    doc = (await (await fetch(`${sb.baseUrl}/docs/openapi`)).json()) as Record<string, unknown>;
  });
  afterAll(() => sb.close());

  it("is served at /api/v1/docs/openapi and /api/docs/openapi without credentials", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const other = (await (await fetch(`${sb.origin}/api/docs/openapi`)).json()) as unknown;
    expect(other).toEqual(doc);
    const paths = Object.keys(doc.paths as object).sort();
    expect(paths).toEqual([
      "/account-details",
      "/auth",
      "/locations",
      "/locations/{id}",
      "/transactions",
      "/transactions/{id}",
    ]);
  });

  it("documents this profile's parameters", () => {
    const params = (path: string) =>
      (doc.paths as Record<string, { get: { parameters: { name: string; schema: { format?: string } }[] } }>)[path]?.get
        .parameters ?? [];
    const names = params("/locations").map((p) => p.name);
    expect(names).toContain(profile === "primary" ? "search" : "q");
    const from = params("/transactions").find((p) => p.name === "from");
    expect(from?.schema.format).toBe(profile === "primary" ? "date" : "date-time");
  });

  it("passes the Redocly OpenAPI linter with no errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ffd-openapi-"));
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    try {
      const { stdout } = await run(
        process.execPath,
        ["node_modules/@redocly/cli/bin/cli.js", "lint", file, "--format=json"],
        { maxBuffer: 10_000_000 },
      ).catch((error: unknown) => {
        const e = error as { stdout?: string; stderr?: string };
        throw new Error(`redocly lint failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
      });
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number } };
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
