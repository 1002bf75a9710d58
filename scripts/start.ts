// `npm start`: the one command that runs the whole product on a fresh machine.
//
// The app listens on 127.0.0.1 (this machine only) unless HOST says otherwise: exposing it (HOST=0.0.0.0) is for a
// deployment behind a TLS-terminating proxy, with SESSION_SECRET etc. set (README "Security: what a deployment must
// provide"). The sandbox always listens on 127.0.0.1.
//
// Without FLEET_API_BASE_URL it starts the reference sandbox (sandbox/cli.ts) and points the app at it; with it, the app
// talks to that upstream and no sandbox runs. The app is built once when no production build exists, then served with
// `next start`. Ctrl-C / SIGTERM stops everything; if one child dies, the other is stopped and we exit non-zero.
import nextEnv from "@next/env";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, isIP } from "node:net";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { appNodeArgs } from "./app-heap";
import { buildState } from "./build-state";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const SANDBOX_ENTRY = path.join(ROOT, "sandbox/cli.ts");

const DEFAULT_APP_PORT = 3000;
const DEFAULT_APP_HOST = "127.0.0.1";
const DEFAULT_SANDBOX_PORT = 4010;
const MIN_PORT = 1;
const MAX_PORT = 65_535;

// The sandbox's first start seeds its SQLite database, which takes a while on a slow machine.
const SANDBOX_READY_TIMEOUT_MS = 120_000;
const APP_READY_TIMEOUT_MS = 60_000;
const POLL_INTERVAL_MS = 500;
const PROGRESS_INTERVAL_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;
// How long children get to exit after the forwarded signal before they are killed.
const STOP_GRACE_MS = 10_000;
// A Ctrl-C in the terminal signals our whole process group, children included: give them this long to act on it
// before we forward the signal, so that a child that stops quickly does not get it twice.
const FORWARD_DELAY_MS = 300;
// One Ctrl-C can reach us several times (the terminal, npm and tsx all relay it); only a later one means "force".
const REPEAT_SIGNAL_WINDOW_MS = 1_000;

const EXIT_FAILURE = 1;
const EXIT_BAD_CONFIG = 2;

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

interface Config {
  appPort: number;
  /** The address the app listens on (`next start -H`). */
  appHost: string;
  sandboxPort: number;
  /** The upstream Fleet Fuel API base URL, or undefined to start the sandbox. */
  upstream: string | undefined;
}

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
const lifecycle = new AbortController();
let shutdownPromise: Promise<never> | undefined;
let firstStopSignalAt: number | undefined;

function log(message: string): void {
  console.log(`[start] ${message}`);
}

function logError(message: string): void {
  console.error(`[start] ${message}`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Configuration

function parsePort(name: string, raw: string | undefined, fallback: number, errors: string[]): number {
  const value = raw?.trim() ?? "";
  if (value === "") return fallback;
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
    errors.push(`${name} must be an integer from ${MIN_PORT} to ${MAX_PORT}; got ${JSON.stringify(raw)}.`);
    return fallback;
  }
  return port;
}

/** An IP address or a host name to listen on; anything else (a URL, a port, spaces) is refused. */
function parseHost(raw: string | undefined, errors: string[]): string {
  const value = raw?.trim() ?? "";
  if (value === "") return DEFAULT_APP_HOST;
  const isHostName =
    /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value);
  if (isIP(value) === 0 && !isHostName) {
    errors.push(
      `HOST must be an address or host name to listen on, e.g. 127.0.0.1 (the default: this machine only) or 0.0.0.0 (every interface); got ${JSON.stringify(raw)}.`,
    );
    return DEFAULT_APP_HOST;
  }
  return value;
}

/** Where this script itself reaches the app: a wildcard address is reached on loopback. */
function probeHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** The address to open in a browser: localhost for this machine's loopback (as before HOST existed). */
function browserHost(host: string): string {
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") return "localhost";
  return probeHost(host);
}

function parseUpstream(raw: string | undefined, errors: string[]): string | undefined {
  const value = raw?.trim() ?? "";
  if (value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    errors.push(`FLEET_API_BASE_URL must be an absolute http(s) URL; got ${JSON.stringify(raw)}.`);
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    errors.push(`FLEET_API_BASE_URL must use http or https; got ${JSON.stringify(raw)}.`);
    return undefined;
  }
  return value;
}

/** Reads the environment, naming every bad variable at once. */
function readConfig(env: NodeJS.ProcessEnv): Config {
  const errors: string[] = [];
  const appPort = parsePort("PORT", env.PORT, DEFAULT_APP_PORT, errors);
  const appHost = parseHost(env.HOST, errors);
  const sandboxPort = parsePort("SANDBOX_PORT", env.SANDBOX_PORT, DEFAULT_SANDBOX_PORT, errors);
  const upstream = parseUpstream(env.FLEET_API_BASE_URL, errors);
  if (errors.length === 0 && upstream === undefined && appPort === sandboxPort) {
    errors.push(`PORT and SANDBOX_PORT are both ${appPort}; give the app and the sandbox different ports.`);
  }
  if (errors.length > 0) {
    logError("Cannot start: bad configuration.");
    for (const error of errors) console.error(`  - ${error}`);
    process.exit(EXIT_BAD_CONFIG);
  }
  return { appPort, appHost, sandboxPort, upstream };
}

function requireFile(file: string, hint: string): void {
  if (!existsSync(file)) {
    logError(`Missing ${path.relative(ROOT, file)}. ${hint}`);
    process.exit(EXIT_FAILURE);
  }
}

/** Resolves to undefined when the port can be bound, else to the error code (EADDRINUSE, EACCES…). */
function probePortFree(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
    server.listen({ port, exclusive: true }, () => {
      server.close(() => {
        resolve(undefined);
      });
    });
  });
}

async function assertPortFree(port: number, variable: string): Promise<void> {
  const problem = await probePortFree(port);
  if (problem === undefined) return;
  const why = problem === "EADDRINUSE" ? "is already in use" : `cannot be used (${problem})`;
  throw new Error(`Port ${port} (${variable}) ${why}. Stop whatever holds it or set ${variable} to another port.`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Children

function describeExit({ code, signal }: ExitInfo): string {
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

function spawnChild(name: string, args: string[], env: NodeJS.ProcessEnv): ManagedChild {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    // Same process group as us: a Ctrl-C in the terminal, or a supervisor killing the group, reaches the children
    // directly too, so nothing outlives us. Duplicate signals are fine: next and tsx both expect them.
    stdio: "inherit",
  });
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
function spawnService(name: string, args: string[], env: NodeJS.ProcessEnv): ManagedChild {
  const service = spawnChild(name, args, env);
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

// ---------------------------------------------------------------------------------------------------------------------
// Shutdown

interface ShutdownRequest {
  exitCode: number;
  /** What the children get. */
  signal: NodeJS.Signals;
  reason: string;
  /** The stop came as a signal, which may have reached the children already (see FORWARD_DELAY_MS). */
  isFromSignal: boolean;
}

function shutdown(request: ShutdownRequest): Promise<never> {
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

function onStopSignal(signal: StopSignal): void {
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

// ---------------------------------------------------------------------------------------------------------------------
// Readiness

/** One HTTP probe: the status code, or undefined when nothing answered in time. */
async function probeHttp(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      redirect: "manual",
      signal: AbortSignal.any([lifecycle.signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

interface WaitOptions {
  url: string;
  what: string;
  timeoutMs: number;
  isReady: (status: number) => boolean;
  onProgress?: (elapsedSeconds: number) => void;
}

async function waitForHttp({ url, what, timeoutMs, isReady, onProgress }: WaitOptions): Promise<void> {
  const startedAt = Date.now();
  let nextProgressAt = startedAt + PROGRESS_INTERVAL_MS;
  for (;;) {
    lifecycle.signal.throwIfAborted();
    const status = await probeHttp(url);
    if (status !== undefined && isReady(status)) return;
    const now = Date.now();
    if (now - startedAt >= timeoutMs) {
      const last = status === undefined ? "no answer" : `last status ${status}`;
      throw new Error(`The ${what} did not become ready at ${url} within ${timeoutMs / 1000} s (${last}).`);
    }
    if (onProgress !== undefined && now >= nextProgressAt) {
      nextProgressAt += PROGRESS_INTERVAL_MS;
      onProgress(Math.round((now - startedAt) / 1000));
    }
    await delay(POLL_INTERVAL_MS, undefined, { signal: lifecycle.signal });
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Main

async function startSandbox(port: number): Promise<string> {
  requireFile(SANDBOX_ENTRY, "The sandbox is part of this repository; is the checkout complete?");
  await assertPortFree(port, "SANDBOX_PORT");
  log(`FLEET_API_BASE_URL is not set: starting the sandbox on port ${port}…`);
  spawnService("sandbox", [TSX_CLI, SANDBOX_ENTRY, "--port", String(port)], process.env);
  await waitForHttp({
    url: `http://127.0.0.1:${port}/healthz`,
    what: "sandbox",
    timeoutMs: SANDBOX_READY_TIMEOUT_MS,
    isReady: (status) => status === 200,
    onProgress: (seconds) => {
      log(`Waiting for the sandbox (seeding its database on first start)… ${seconds} s`);
    },
  });
  const upstream = `http://127.0.0.1:${port}/api/v1`;
  log(`Sandbox ready; the app uses ${upstream} (the sandbox printed its demo key pair above).`);
  return upstream;
}

/**
 * The sandbox's demo key pair (demo-full), for the login page's "Sign in with the demo key" (the app keeps the secret
 * on its server). Read with the sandbox's own CLI from the database it serves; undefined (with a note) if that fails.
 */
function readDemoKey(): { keyId: string; secret: string } | undefined {
  const result = spawnSync(process.execPath, [TSX_CLI, SANDBOX_ENTRY, "keys", "demo", "--json"], {
    cwd: ROOT,
    env: process.env,
    encoding: "utf8",
    timeout: 60_000,
  });
  try {
    const rows = JSON.parse(result.stdout) as unknown;
    if (Array.isArray(rows)) {
      for (const row of rows as unknown[]) {
        if (typeof row !== "object" || row === null) continue;
        const { label, key_id: keyId, secret } = row as Record<string, unknown>;
        if (label === "demo-full" && typeof keyId === "string" && typeof secret === "string") return { keyId, secret };
      }
    }
  } catch {
    // reported below
  }
  log("Could not read the sandbox's demo key; the login page will not offer it (sign in with the pair printed above).");
  return undefined;
}

async function buildIfNeeded(env: NodeJS.ProcessEnv): Promise<void> {
  const state = buildState(ROOT);
  if (state === "current") return;
  log(
    state === "missing"
      ? "No production build yet: running next build…"
      : "The sources changed since the last build: running next build…",
  );
  const build = spawnChild("build", [NEXT_BIN, "build"], env);
  const info = await build.exited;
  lifecycle.signal.throwIfAborted();
  if (info.code !== 0) throw new Error(`next build failed (${describeExit(info)}); see its output above.`);
}

async function main(): Promise<void> {
  // .env, .env.local and .env.production(.local), with Next's precedence; variables already set win. Loaded here too so
  // PORT, SANDBOX_* and FLEET_API_BASE_URL from those files reach the launcher and the sandbox, not only the app.
  nextEnv.loadEnvConfig(ROOT, false, { info: () => undefined, error: console.error });
  const config = readConfig(process.env);
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      onStopSignal(signal);
    });
  }
  requireFile(NEXT_BIN, "Run npm install first.");
  requireFile(TSX_CLI, "Run npm install first.");

  let upstream = config.upstream;
  const demoEnv: Record<string, string> = {};
  if (upstream === undefined) {
    upstream = await startSandbox(config.sandboxPort);
    const demo = process.env.DEMO_KEY_ID === undefined ? readDemoKey() : undefined;
    if (demo !== undefined) Object.assign(demoEnv, { DEMO_KEY_ID: demo.keyId, DEMO_KEY_SECRET: demo.secret });
  } else {
    log(`Using the Fleet Fuel API at ${upstream} (from FLEET_API_BASE_URL); the sandbox is not started.`);
  }

  await assertPortFree(config.appPort, "PORT");
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...demoEnv,
    FLEET_API_BASE_URL: upstream,
    PORT: String(config.appPort),
  };
  await buildIfNeeded(appEnv);

  spawnService(
    "app",
    [...appNodeArgs(appEnv), NEXT_BIN, "start", "-p", String(config.appPort), "-H", config.appHost],
    appEnv,
  );
  await waitForHttp({
    url: `http://${probeHost(config.appHost)}:${config.appPort}/`,
    what: "app",
    timeoutMs: APP_READY_TIMEOUT_MS,
    // Any HTTP answer means the server is up; what a page returns is the app's business.
    isReady: () => true,
  });
  const exposed = config.appHost === "0.0.0.0" || config.appHost === "::";
  log(
    `Dashboard: http://${browserHost(config.appHost)}:${config.appPort}${exposed ? ` (listening on every interface: HOST=${config.appHost})` : ""}`,
  );
}

main().catch((error: unknown) => {
  // Once a shutdown is under way, an aborted wait is expected and the shutdown owns the exit.
  if (shutdownPromise !== undefined) return;
  const message = error instanceof Error ? error.message : String(error);
  void shutdown({ exitCode: EXIT_FAILURE, signal: "SIGTERM", reason: message, isFromSignal: false });
});
