import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import type { Report } from "./lib/report";

// `npm run bench` for real (bench/run.ts under tsx, as `npm run bench` runs it): every process it starts carries a
// marker in its environment, so what is left afterwards is found by PID in /proc, whatever its process group
// (Chromium and Lighthouse's Chrome are started in groups of their own); and, since redis-server and PostgreSQL
// rewrite the memory /proc shows as their environment (for their process title), by the PIDs of every process seen
// under the run while it ran (its tree sampled from /proc).

const MARK = "FFD_BENCH_TEST_RUN";

/** The PIDs (and names) of the processes whose environment carries `mark` (Linux /proc; we run as their user). */
function markedProcesses(mark: string): { pid: number; name: string }[] {
  const found: { pid: number; name: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`${MARK}=${mark}`)) continue;
      found.push({ pid: Number(entry), name: readFileSync(`/proc/${entry}/comm`, "utf8").trim() });
    } catch {
      // gone while we looked, or not ours to read
    }
  }
  return found;
}

/** `pid` and every process under it now, with their names (to tell a later reuse of the number apart). */
function processTree(pid: number): { pid: number; name: string }[] {
  const tree: { pid: number; name: string }[] = [];
  const visit = (current: number) => {
    try {
      tree.push({ pid: current, name: readFileSync(`/proc/${String(current)}/comm`, "utf8").trim() });
      for (const task of readdirSync(`/proc/${String(current)}/task`))
        for (const child of readFileSync(`/proc/${String(current)}/task/${task}/children`, "utf8").split(" "))
          if (child !== "") visit(Number(child));
    } catch {
      // gone while we looked
    }
  };
  visit(pid);
  return tree;
}

/** Those of `processes` still running under the same name. */
function stillRunning(processes: { pid: number; name: string }[]): { pid: number; name: string }[] {
  return processes.filter(({ pid, name }) => {
    try {
      return readFileSync(`/proc/${String(pid)}/comm`, "utf8").trim() === name;
    } catch {
      return false;
    }
  });
}

interface Run {
  mark: string;
  pid: number;
  exited: Promise<number | null>;
  output(): string;
  /** Every process seen under the run while it ran (sampled from /proc until it exited). */
  seen(): { pid: number; name: string }[];
}

const dir = mkdtempSync(join(tmpdir(), "ffd-bench-run-"));
const marks: string[] = [];
const runs: (() => { pid: number; name: string }[])[] = [];

function runBench(args: string[], env: Record<string, string> = {}): Run {
  const mark = randomBytes(8).toString("hex");
  marks.push(mark);
  const child = spawn(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "bench/run.ts", ...args],
    {
      env: { ...process.env, ...env, [MARK]: mark },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const seen = new Map<number, string>();
  const sample = setInterval(() => {
    for (const p of processTree(child.pid ?? 0)) seen.set(p.pid, p.name);
  }, 100);
  void exited.then(() => {
    clearInterval(sample);
  });
  const seenProcesses = () => [...seen].map(([pid, name]) => ({ pid, name }));
  runs.push(seenProcesses);
  return { mark, pid: child.pid ?? 0, exited, output: () => output, seen: seenProcesses };
}

/**
 * Waits (no timing asserted; gives up after ~10 s) until no process of the run is left — neither one carrying its
 * marker nor one seen under it — and returns what is.
 */
async function leftOver(run: Run): Promise<{ pid: number; name: string }[]> {
  const left = () => [...markedProcesses(run.mark), ...stillRunning(run.seen())];
  for (let i = 0; i < 100 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  return left();
}

afterAll(() => {
  // What a failing run left behind (main's code did leave the sandbox and the app) is killed here by PID, never by name.
  for (const mark of marks) for (const { pid } of markedProcesses(mark)) process.kill(pid, "SIGKILL");
  for (const seen of runs) for (const { pid } of stillRunning(seen())) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run bench stops everything it started", () => {
  it("skips a part whose binary is missing with a 'not measured' row naming the package, leaving no process", async () => {
    // A PATH without redis-server (and without apt-get, so that running as root cannot install it either). The headers
    // part runs first and starts the shared sandbox and app, which must be stopped at the end as usual.
    const emptyPath = join(dir, "bin-empty");
    const out = join(dir, "missing");
    const run = runBench(["headers", "cluster-budget", "--smoke", "--out", out], { PATH: emptyPath });
    const code = await run.exited;
    // The app ran (its title, cut to 15 characters in /proc/PID/comm).
    expect(
      run.seen().some((p) => p.name.startsWith("next-server")),
      run.output(),
    ).toBe(true);
    expect(await leftOver(run)).toEqual([]);
    expect(run.output()).not.toContain("ENOENT");
    expect(code, run.output()).toBe(0);
    const report = JSON.parse(readFileSync(`${out}.json`, "utf8")) as Report;
    expect(report.errors).toEqual([]);
    expect(report.figures.filter((f) => f.part === "cluster-budget")).toEqual([
      expect.objectContaining({
        part: "cluster-budget",
        status: "not-measured",
        note: expect.stringMatching(/redis-server[\s\S]*apt-get install -y redis-server/) as unknown,
      }),
    ]);
    // Two parts of the bench with the sandbox and the app: ~20 s alone, more beside the other test forks.
  }, 180_000);

  it("a part that throws (a redis-server that never listens) stops the sandbox it had started", async () => {
    const fakeBin = join(dir, "bin-broken");
    rmSync(fakeBin, { recursive: true, force: true });
    mkdirSync(fakeBin, { recursive: true });
    writeFileSync(join(fakeBin, "redis-server"), "#!/bin/sh\nexit 1\n");
    chmodSync(join(fakeBin, "redis-server"), 0o755);
    const out = join(dir, "throws");
    const run = runBench(["cluster", "--smoke", "--out", out], { PATH: `${fakeBin}:${process.env.PATH ?? ""}` });
    const code = await run.exited;
    expect(await leftOver(run)).toEqual([]);
    expect(code).toBe(1); // the bench's own failure, reported
    const report = JSON.parse(readFileSync(`${out}.json`, "utf8")) as Report;
    expect(report.errors).toEqual([expect.objectContaining({ part: "cluster" })]);
  }, 120_000);

  it("Ctrl-C (SIGINT) mid-part stops the PostgreSQL it started and exits 130", async () => {
    const run = runBench(["insights-drilldowns", "--smoke", "--out", join(dir, "sigint")]);
    // The server (not initdb's bootstrap processes): it is the one started with listen_addresses, once it runs as
    // postgres (as root, `runuser … postgres -c listen_addresses=…` carries the same command line until it execs).
    const isServer = ({ pid, name }: { pid: number; name: string }) => {
      try {
        return name === "postgres" && readFileSync(`/proc/${String(pid)}/cmdline`, "utf8").includes("listen_addresses");
      } catch {
        return false;
      }
    };
    // Looked for in the run's tree: PostgreSQL rewrites its environment (its process title), so the marker may be gone.
    for (let i = 0; !processTree(run.pid).some(isServer); i++) {
      if (i > 1200) throw new Error(`PostgreSQL never started:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Every process of the run by PID (redis-server and PostgreSQL rewrite the memory /proc shows as their
    // environment for their process title, so the marker alone could miss them).
    expect(processTree(run.pid).map((p) => p.name)).toContain("postgres");
    process.kill(run.pid, "SIGINT");
    expect(await run.exited).toBe(130);
    expect(await leftOver(run)).toEqual([]);
    expect(existsSync(join(dir, "sigint.json"))).toBe(false);
  }, 120_000);
});
