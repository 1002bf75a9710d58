// .ci/run prints each phase's time before its closing "N passed, N failed" line (issue 26), which stays the last line.
// The phase helper runs under real bash with a clock the test moves; .ci/run itself runs in a copy of .ci/ whose PATH
// puts stand-ins for npm, redis-server and haproxy first: the real ones would install, lint and test the project
// (the 30-minute run this file is part of), so those commands are the one thing replaced here.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "ffd-ci-run-"));
  dirs.push(dir);
  return dir;
}

function bash(script: string, env: Record<string, string> = {}, cwd = root) {
  const run = spawnSync("bash", ["-c", script], { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  return { status: run.status, lines: `${run.stdout}${run.stderr}`.trimEnd().split("\n") };
}

function executable(file: string, body: string): void {
  writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(file, 0o755);
}

describe(".ci/phases.sh", () => {
  it("times each phase by the clock, passes the command's status on and prints the phases in order with a total", () => {
    const clock = path.join(tempDir(), "now");
    writeFileSync(clock, "1000");
    const { status, lines } = bash(
      [
        "source .ci/phases.sh",
        'ci_now() { cat "$CLOCK"; }',
        'advance() { echo $(( $(cat "$CLOCK") + $1 )) > "$CLOCK"; return "$2"; }',
        "phase lint advance 65 0; echo lint=$?",
        'phase "npm ci" advance 5 0',
        "phase vitest advance 754 3; echo vitest=$?",
        "print_phases",
      ].join("\n"),
      { CLOCK: clock },
    );
    expect(status).toBe(0);
    expect(lines).toEqual([
      "lint=0",
      "vitest=3",
      "phase times:",
      "  lint             1m05s",
      "  npm ci           0m05s",
      "  vitest          12m34s",
      "  total           13m44s",
    ]);
  });
});

describe(".ci/run", () => {
  /** A copy of .ci/ beside stand-in commands; returns the run's output lines and status. */
  const runCi = (npm: string) => {
    const checkout = tempDir();
    mkdirSync(path.join(checkout, ".ci"));
    for (const file of ["run", "phases.sh"])
      copyFileSync(path.join(root, ".ci", file), path.join(checkout, ".ci", file));
    const bin = path.join(checkout, "bin");
    mkdirSync(bin);
    executable(path.join(bin, "npm"), npm);
    for (const tool of ["redis-server", "haproxy", "chromium"]) executable(path.join(bin, tool), "exit 0");
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}`, CHROMIUM_PATH: path.join(bin, "chromium") };
    return bash(`bash .ci/run`, env, checkout);
  };

  it("prints every phase's time just before the last line, 'N passed, N failed'", () => {
    // The stand-in npm passes each step; the test steps leave the JSON results the real runners write.
    const { status, lines } = runCi(
      [
        'case "$*" in',
        `  "run test:unit") echo '{"numPassedTests":7,"numFailedTests":0,"testResults":[]}' > .ci-results/vitest.json ;;`,
        `  "run test:e2e") echo '{"stats":{"expected":4,"flaky":1,"unexpected":0}}' > .ci-results/playwright.json ;;`,
        "esac",
      ].join("\n"),
    );
    expect(status).toBe(0);
    expect(lines.at(-1)).toBe("15 passed, 0 failed");
    const start = lines.indexOf("phase times:");
    const phases = lines.slice(start + 1, -1).map((line) => /^ {2}(\S.*?) +\d+m\d\ds$/.exec(line)?.[1]);
    expect(phases).toEqual(["npm ci", "lint+types", "build", "vitest", "e2e", "bench smoke", "total"]);
  });

  it("runs ESLint beside Prettier then tsc (each on one core), and counts and prints lint and typecheck each", () => {
    // Each stand-in marks that it started and waits (bounded) for the other side's mark: run one after the other,
    // the first would give up waiting and fail. A failing typecheck is then counted alone, its output printed.
    const meet = (mine: string, other: string, status: number) =>
      `touch ${mine}; for _ in $(seq 100); do [ -f ${other} ] && { echo "${mine} met ${other}"; exit ${String(status)}; }; sleep 0.1; done; exit 9`;
    const { status, lines } = runCi(
      [
        'case "$*" in',
        `  "run lint:code") ${meet("code.started", "types.started", 0)} ;;`,
        `  "run typecheck") ${meet("types.started", "code.started", 2)} ;;`,
        `  "run test:unit") echo '{"numPassedTests":7,"numFailedTests":0,"testResults":[]}' > .ci-results/vitest.json ;;`,
        `  "run test:e2e") echo '{"stats":{"expected":4,"flaky":1,"unexpected":0}}' > .ci-results/playwright.json ;;`,
        "esac",
      ].join("\n"),
    );
    expect(status).toBe(1);
    expect(lines).toContain("code.started met types.started");
    expect(lines).toContain("types.started met code.started");
    expect(lines).toContain("ok: lint");
    expect(lines).toContain("FAILED: typecheck");
    expect(lines.at(-1)).toBe("14 passed, 1 failed");
  });

  it("a failing npm ci still prints the phase times before '0 passed, 1 failed'", () => {
    const { status, lines } = runCi('[ "$1" = ci ] && exit 1; exit 0');
    expect(status).toBe(1);
    expect(lines.slice(-4)).toEqual([
      "phase times:",
      expect.stringMatching(/^ {2}npm ci +\d+m\d\ds$/),
      expect.stringMatching(/^ {2}total +\d+m\d\ds$/),
      "0 passed, 1 failed",
    ]);
  });
});
