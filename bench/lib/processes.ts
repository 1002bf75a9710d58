/**
 * Everything the bench starts (child processes, browsers) is registered here, so that it is stopped at the end, on
 * a part's failure and on Ctrl-C / SIGTERM: nothing the bench started outlives it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

type Stopper = () => Promise<void>;

const stoppers = new Map<number, { name: string; stop: Stopper }>();
let nextId = 0;

/** Registers something to stop; returns a function that stops it now and forgets it. */
export function register(name: string, stop: Stopper): () => Promise<void> {
  const id = nextId++;
  stoppers.set(id, { name, stop });
  return async () => {
    if (!stoppers.delete(id)) return;
    await stop();
  };
}

/** Stops everything still registered, newest first (a browser before the app it talks to, the app before its upstream). */
export async function stopAll(): Promise<void> {
  const entries = [...stoppers.entries()].reverse();
  stoppers.clear();
  for (const [, entry] of entries) {
    try {
      await entry.stop();
    } catch (error) {
      console.error(`[bench] could not stop ${entry.name}:`, error);
    }
  }
}

/** SIGINT/SIGTERM: stop everything, then exit 130/143. A second signal while stopping exits at once. */
export function stopAllOnSignals(): void {
  let stopping = false;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(code);
      stopping = true;
      console.error(`\n[bench] ${signal}: stopping what the bench started…`);
      void stopAll().finally(() => process.exit(code));
    });
  }
}

const KILL_AFTER_MS = 10_000;

export interface Child {
  name: string;
  process: ChildProcess;
  /** Everything it printed on stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `node …args` with its output collected (only the first `maxOutputChars` when given: for a chatty server
 * whose log is not read), registered for stopping (SIGTERM, then SIGKILL after 10 s).
 */
export function spawnNode(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  maxOutputChars = Number.POSITIVE_INFINITY,
): Child {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    if (output.length < maxOutputChars) output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const stop = register(name, () => terminate(child));
  return { name, process: child, output: () => output, stop };
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      resolve();
    }),
  );
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
  await exited;
  clearTimeout(timer);
}

/** Polls until `check` is true; throws with `what` after `timeoutMs`, or at once when `child` has exited. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  child?: Child,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A signal (the bench stopping it after another part of the same start failed) leaves exitCode null.
    if (child && (child.process.exitCode !== null || child.process.signalCode !== null))
      throw new Error(
        `${child.name} exited (${child.process.signalCode ?? `code ${String(child.process.exitCode)}`}) before ${what}:\n${child.output().slice(-2000)}`,
      );
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${String(timeoutMs / 1000)} s waiting for ${what}${child ? `:\n${child.output().slice(-2000)}` : ""}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a GET of the URL gets any HTTP answer. */
export async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { redirect: "manual" })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

const KB = 1024;

/** Resident memory (MB) of a process and all its descendants, from /proc (Linux); 0 when unavailable. */
export function treeRssMb(pid: number | undefined): number {
  if (pid === undefined || !existsSync("/proc")) return 0;
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent; the command name (field 2) may contain spaces, so split after ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  let totalKb = 0;
  const queue = [pid];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(current)}/status`, "utf8"));
      totalKb += Number(match?.[1] ?? 0);
    } catch {
      // gone
    }
    queue.push(...(children.get(current) ?? []));
  }
  return totalKb / KB;
}
