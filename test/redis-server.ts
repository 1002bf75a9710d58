import { type ChildProcess, spawn } from "node:child_process";

import { accepts, freePort } from "./net";

/** Debian's redis-server (package `redis-server`; `npm test` installs it when missing: scripts/system-packages.ts). */
export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:PORT */
  url: string;
  /** Stops the server (SIGKILL with `crash`: as a dead host would, for fail-closed tests). */
  stop(options?: { crash?: boolean }): Promise<void>;
}

/** A real redis-server for a test file: loopback, a free port, no persistence; stopped by `stop()`. */
export async function startRedisServer(
  options: {
    /** Called once the server process exists, before it listens: whoever must stop it on a signal (the bench). */
    onSpawn?: (stop: () => Promise<void>) => void;
  } = {},
): Promise<RedisServer> {
  const port = await freePort();
  const server: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  // A missing binary (spawn ENOENT) is an "error" event: unheard, it would end the process without any cleanup.
  let spawnError: Error | undefined;
  server.once("error", (error) => {
    spawnError = error;
  });
  const stop = async ({ crash = false }: { crash?: boolean } = {}) => {
    if (spawnError !== undefined) return; // never ran
    if (server.exitCode !== null || server.signalCode !== null) return; // already gone (a crash is a signal)
    const exited = new Promise((r) => server.once("exit", r));
    server.kill(crash ? "SIGKILL" : "SIGTERM");
    await exited;
  };
  options.onSpawn?.(() => stop());
  for (let i = 0; !(await accepts(port)); i++) {
    if (spawnError !== undefined)
      throw new Error(
        `could not run redis-server (${spawnError.message}): install Debian's redis-server (apt-get install redis-server)`,
      );
    if (server.exitCode !== null)
      throw new Error(
        `redis-server exited (code ${String(server.exitCode)}) before it listened on port ${String(port)}`,
      );
    if (i > 50) {
      server.kill("SIGKILL");
      throw new Error("redis-server did not start (is Debian's redis-server installed?)");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url: `redis://127.0.0.1:${String(port)}`,
    stop,
  };
}
