/**
 * The launcher's children (sandbox, build, app) and their shutdown: a child that dies stops the others; a stop signal
 * is forwarded once (a second one, later, forces); children that ignore it are killed with everything under them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import { EXIT_FAILURE, log, logError } from "./log";
import type { LogSink } from "./log-sink";
import { ROOT } from "./paths";

// How long children get to exit after the forwarded signal before they are killed.
const STOP_GRACE_MS = 10_000;
// A Ctrl-C in the terminal signals our whole process group, children included: give them this long to act on it
// before we forward the signal, so that a child that stops quickly does not get it twice.
const FORWARD_DELAY_MS = 300;
// One Ctrl-C can reach us several times (the terminal, npm and tsx all relay it); only a later one means "force".
const REPEAT_SIGNAL_WINDOW_MS = 1_000;

export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface ManagedChild {
  name: string;
  process: ChildProcess;
  exited: Promise<ExitInfo>;
}

const spawned: ManagedChild[] = [];
/** Aborted when the shutdown starts: waits and probes stop then. */
export const lifecycle = new AbortController();
let shutdownPromise: Promise<never> | undefined;
let firstStopSignalAt: number | undefined;

/** Whether a shutdown is under way (it then owns the exit). */
export function isShuttingDown(): boolean {
  return shutdownPromise !== undefined;
}

export function describeExit({ code, signal }: ExitInfo): string {
  return signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
}

function hasExited(child: ManagedChild): boolean {
  return child.process.exitCode !== null || child.process.signalCode !== null;
}

function isNoSuchProcess(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === "ESRCH";
}

function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if (!isNoSuchProcess(error)) throw error;
  }
}

/** Child pids of a process, from Linux's /proc; empty where that is not available. */
function listChildPids(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  try {
    return readdirSync(taskDir).flatMap((task) =>
      readFileSync(path.join(taskDir, task, "children"), "utf8")
        .split(" ")
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * Kills a child and everything under it. Only for a child that ignored the polite signal: tsx runs the sandbox in a
 * second node process, which would be orphaned by killing tsx alone. Children are collected before anyone dies.
 */
function killTree(child: ManagedChild): void {
  const { pid } = child.process;
  if (pid === undefined || hasExited(child)) return;
  const pids: number[] = [];
  const collect = (parent: number): void => {
    pids.push(parent);
    for (const grandchild of listChildPids(parent)) collect(grandchild);
  };
  collect(pid);
  for (const target of pids) sendSignal(target, "SIGKILL");
}

/**
 * Runs a program (node by default) as a child; `as` runs it under another user's ids (PostgreSQL refuses root); `sink`
 * takes its output instead of the terminal.
 */
export function spawnChild(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  program: { command?: string; as?: { uid: number; gid: number }; sink?: LogSink } = {},
): ManagedChild {
  const child = spawn(program.command ?? process.execPath, args, {
    cwd: ROOT,
    env,
    ...(program.as ?? {}),
    // Same process group as us: a Ctrl-C in the terminal, or a supervisor killing the group, reaches the children
    // directly too, so nothing outlives us. Duplicate signals are fine: next and tsx both expect them.
    // With a sink (npm start), its output goes to a log file and only what matters to the terminal (log-sink.ts).
    stdio: program.sink === undefined ? "inherit" : ["inherit", "pipe", "pipe"],
  });
  program.sink?.attach(child.stdout, child.stderr);
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      resolve({ code, signal });
    });
    child.once("error", (error) => {
      logError(`Could not run ${name}: ${error.message}`);
      resolve({ code: EXIT_FAILURE, signal: null });
    });
  });
  const managed: ManagedChild = { name, process: child, exited };
  spawned.push(managed);
  return managed;
}

/** A long-running child: its exit is only expected while we are shutting down. */
export function spawnService(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  program: Parameters<typeof spawnChild>[3] = {},
): ManagedChild {
  const service = spawnChild(name, args, env, program);
  void service.exited.then((info) => {
    if (shutdownPromise !== undefined) return;
    void shutdown({
      exitCode: EXIT_FAILURE,
      signal: "SIGTERM",
      reason: `The ${name} exited unexpectedly (${describeExit(info)}); stopping.`,
      isFromSignal: false,
    });
  });
  return service;
}

interface ShutdownRequest {
  exitCode: number;
  /** What the children get. */
  signal: NodeJS.Signals;
  reason: string;
  /** The stop came as a signal, which may have reached the children already (see FORWARD_DELAY_MS). */
  isFromSignal: boolean;
}

export function shutdown(request: ShutdownRequest): Promise<never> {
  shutdownPromise ??= runShutdown(request);
  return shutdownPromise;
}

async function runShutdown({ exitCode, signal, reason, isFromSignal }: ShutdownRequest): Promise<never> {
  lifecycle.abort();
  if (exitCode === 0) log(reason);
  else logError(reason);
  if (isFromSignal) await delay(FORWARD_DELAY_MS);

  const running = spawned.filter((child) => !hasExited(child));
  if (running.length > 0) {
    log(`Stopping ${running.map((child) => child.name).join(" and ")}…`);
    for (const child of running) child.process.kill(signal);
    const allExited = Promise.all(running.map((child) => child.exited)).then(() => true);
    const stoppedInTime = await Promise.race([allExited, delay(STOP_GRACE_MS, false)]);
    if (!stoppedInTime) {
      logError(`Still running after ${STOP_GRACE_MS / 1000} s; killing.`);
      for (const child of running) killTree(child);
      await allExited;
    }
  }

  if (exitCode === 0) log("Stopped.");
  process.exit(exitCode);
}

export function onStopSignal(signal: StopSignal): void {
  const now = Date.now();
  if (firstStopSignalAt === undefined) {
    firstStopSignalAt = now;
    // Children that ignore SIGHUP would survive a closed terminal, so they get SIGTERM instead.
    const forwarded: NodeJS.Signals = signal === "SIGHUP" ? "SIGTERM" : signal;
    void shutdown({
      exitCode: 0,
      signal: forwarded,
      reason: `${signal} received; stopping (${signal === "SIGINT" ? "press Ctrl-C" : "send it"} again to force).`,
      isFromSignal: true,
    });
    return;
  }
  if (now - firstStopSignalAt < REPEAT_SIGNAL_WINDOW_MS) return;
  logError("Forcing stop.");
  for (const child of spawned) killTree(child);
}
