import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";

import { initdbArgs, POSTGRES_BIN, serverArgs } from "../scripts/start/postgres";
import { freePort } from "./net";

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** A fresh, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root every server command runs as the `postgres` user. */
const command = (bin: string, args: string[]): [string, string[]] =>
  asRoot ? ["runuser", ["-u", "postgres", "--", join(POSTGRES_BIN, bin), ...args]] : [join(POSTGRES_BIN, bin), args];

/**
 * A real PostgreSQL server for a test file: a fresh cluster in a temporary directory (owned by `postgres` when we are
 * root), listening on 127.0.0.1 and a free port only, without fsync (tests need no durability), stopped and removed
 * by `stop()`.
 */
export async function startPostgresServer(
  options: {
    /** Called once the server process exists, before it is ready: whoever must stop it on a signal (the bench). */
    onSpawn?: (stop: () => Promise<void>) => void;
  } = {},
): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), "ffd-postgres-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const [initCmd, initArgs] = command("initdb", initdbArgs(data, { durable: false }));
  execFileSync(initCmd, initArgs, { stdio: "pipe" });
  const port = await freePort();
  const [cmd, args] = command("postgres", serverArgs(data, port, dir, { durable: false }));
  const child: ChildProcess = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `postgres://postgres@127.0.0.1:${String(port)}/postgres`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // runuser does not pass signals on, so pg_ctl stops the server it started ("immediate": a test cluster needs
      // no clean checkpoint; it is deleted next).
      const [stopCmd, stopArgs] = command("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
      try {
        execFileSync(stopCmd, stopArgs, { stdio: "pipe" });
      } catch {
        child.kill("SIGKILL");
      }
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  options.onSpawn?.(stop);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`postgres exited:\n${output}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`postgres did not accept connections in 30 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    createDatabase: async (name) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    stop,
  };
}
