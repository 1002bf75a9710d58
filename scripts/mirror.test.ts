import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import { MirrorStore, MirrorSync } from "@/lib/mirror";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

/**
 * `npm run mirror -- status|purge` as an operator runs it (a real process), on both real stores: SQLite in a temporary
 * file and a PostgreSQL server this file starts. The stores are filled by a real first head sync from the sandbox.
 */

const run = promisify(execFile);
const CLI = ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/mirror.ts"];

let upstream: SandboxProcess;
let postgres: PostgresServer;
let dir: string;

beforeAll(async () => {
  upstream = await startSandboxProcess({ args: ["--budget", "100000"] });
  postgres = await startPostgresServer();
  dir = mkdtempSync(join(tmpdir(), "ffd-mirror-cli-"));
});
afterAll(async () => {
  await upstream.stop();
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(["sqlite", "postgres"] as const)("npm run mirror (%s store)", (kind) => {
  let env: Record<string, string>;

  const mirror = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const status = async () =>
    JSON.parse((await mirror("status", "--json")).stdout) as {
      bytes: number;
      customers: { customerId: string; rows: number; lastUsedMs: number | null }[];
    };

  beforeAll(async () => {
    env =
      kind === "sqlite"
        ? { MIRROR_PATH: join(dir, "mirror.db"), DATABASE_URL: "" }
        : { DATABASE_URL: await postgres.createDatabase("mirror_cli") };
    const store = await MirrorStore.open(
      kind === "sqlite" ? { path: env.MIRROR_PATH } : { databaseUrl: env.DATABASE_URL },
    );
    const client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
    });
    const sync = new MirrorSync({ store, client });
    await sync.run("code:PFL", upstream.keys["demo-full"], { phases: ["head"] });
    await sync.run("code:CHI", upstream.keys["other-full"], { phases: ["head"] });
    await store.close();
  });

  it("lists each customer with rows, coverage, last sync, last use and size", async () => {
    const text = await mirror("status");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/2 customer\(s\)/);
    expect(text.stdout).toMatch(
      /code:PFL: \d+ rows, coverage \S+ – \S+ .*last sync \S+, last use \S+, about [\d.]+ MiB/,
    );
    const json = await status();
    expect(json.customers.map((c) => c.customerId)).toEqual(["code:CHI", "code:PFL"]);
    expect(json.customers.every((c) => c.rows > 0 && c.lastUsedMs !== null)).toBe(true);
    expect(json.bytes).toBeGreaterThan(0);
  });

  it.each([
    [["purge"], /exactly one of --customer CODE, --unused or --all/],
    [["purge", "--customer", "PFL", "--all"], /exactly one of/],
    [["purge", "--customer", "NOPE"], /no mirror of customer "NOPE".*npm run mirror -- status/],
    [["purge", "--customer", ""], /needs a customer code/],
    [["status", "--all"], /status takes only --json/],
    [["sync"], /unknown command "sync"/],
    [["status", "--everything"], /Unknown option '--everything'/],
  ])("refuses %o with a message and the usage (exit 2)", async (args, message) => {
    const out = await mirror(...args);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/Usage: npm run mirror -- status/);
  });

  it("refuses a bad MIRROR_RETENTION_DAYS, naming it", async () => {
    const out = await run(process.execPath, [...CLI, "purge", "--unused"], {
      env: { ...process.env, ...env, MIRROR_RETENTION_DAYS: "0" },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect("code" in out && out.code).toBe(2);
    expect(out.stderr).toMatch(/MIRROR_RETENTION_DAYS must be a whole number from 1 to 3650/);
  });

  it("purges nothing unused yet, then one customer by code, then all", async () => {
    expect((await mirror("purge", "--unused")).stdout).toMatch(/Nothing to delete/);
    const one = await mirror("purge", "--customer", "PFL");
    expect(one).toMatchObject({ code: 0 });
    expect(one.stdout).toMatch(/Deleted the mirror of code:PFL/);
    expect((await status()).customers.map((c) => c.customerId)).toEqual(["code:CHI"]);
    expect((await mirror("purge", "--all")).stdout).toMatch(/Deleted the mirror of code:CHI/);
    expect((await status()).customers).toEqual([]);
  });
});
