import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { inject } from "vitest";

const run = promisify(execFile);
const CLI = ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts"];

export type SandboxProfile = "primary" | "alternative";
type DemoKeyLabel = "demo-full" | "demo-no-transactions" | "demo-revoked" | "demo-allowlist" | "other-full";

export interface SandboxProcess {
  /** {base_url}: http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  profile: SandboxProfile;
  keys: Record<DemoKeyLabel, { keyId: string; secret: string }>;
  /** The sandbox's SQLite file (tests may read it to compare, or plant data). */
  dbPath: string;
  /** What the sandbox printed: with `log: true`, one line per request ("GET /api/v1/transactions 200 1.2ms"). */
  output(): string;
  /** Runs the sandbox's command line on its database (e.g. `keys create`, `keys revoke`), `--json` added; its output. */
  cli(...args: string[]): Promise<string>;
  /** Adds transactions for a customer "now", the way new ones arrive at a provider. Returns their ids. */
  addTransactions(count: number, customer?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * The sandbox as a separate process over real HTTP on loopback, on a fresh copy of the seeded test database.
 * Code outside sandbox/ never imports it: this is how the client and the BFF meet their upstream in tests.
 */
export async function startSandboxProcess(
  options: { profile?: SandboxProfile; args?: string[]; log?: boolean; template?: string } = {},
): Promise<SandboxProcess> {
  const profile = options.profile ?? "primary";
  const dir = mkdtempSync(join(tmpdir(), "ffd-upstream-"));
  const db = join(dir, "sandbox.db");
  if (options.template !== undefined) copyFileSync(options.template, db);
  else copyFileSync(inject("sandboxTemplateDb"), db);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...CLI,
      "--port",
      "0",
      "--db",
      db,
      "--profile",
      profile,
      ...(options.log ? [] : ["--quiet"]),
      ...(options.args ?? []),
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(output);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`the sandbox exited:\n${output}`));
      }
    }, 50);
  });
  const cli = async (...args: string[]) =>
    (await run(process.execPath, [...CLI, ...args, "--db", db, "--json"])).stdout;
  const pairs = JSON.parse(await cli("keys", "demo")) as { label: DemoKeyLabel; key_id: string; secret: string }[];
  const keys = Object.fromEntries(
    pairs.map((p) => [p.label, { keyId: p.key_id, secret: p.secret }]),
  ) as SandboxProcess["keys"];
  return {
    baseUrl,
    profile,
    keys,
    dbPath: db,
    output: () => output,
    cli,
    addTransactions: async (count, customer = "PFL") =>
      (
        JSON.parse(await cli("transactions", "add", "--customer", customer, "--count", String(count))) as {
          ids: string[];
        }
      ).ids,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
