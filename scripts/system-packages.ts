// The Debian packages the test suite runs for real (redis-server, postgresql, chromium, haproxy): `npm test` gets them itself on a fresh
// machine, so the README's test command needs no manual step. As root they are installed with apt (an `apt-get update`
// first only when the plain install fails, as on a machine whose package lists were never fetched); otherwise the
// caller gets the exact command to run.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

export interface SystemTool {
  /** What the tests run: an absolute path, or a command name looked up on PATH. */
  command: string;
  /** The Debian package that provides it. */
  debianPackage: string;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `command` (absolute, or a name on PATH) can be run. */
export function hasCommand(command: string, searchPath = process.env.PATH ?? ""): boolean {
  if (path.isAbsolute(command)) return isExecutable(command);
  return searchPath
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => isExecutable(path.join(dir, command)));
}

export type EnsureResult = { ok: true; installed: string[] } | { ok: false; message: string };

/** The tools of `tools` that cannot be run now. */
export function missingTools(tools: readonly SystemTool[], searchPath?: string): SystemTool[] {
  return tools.filter((tool) => !hasCommand(tool.command, searchPath));
}

function aptInstall(packages: readonly string[]): boolean {
  return (
    spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], { stdio: "inherit" }).status === 0
  );
}

/**
 * Makes sure every tool can be run: installs the missing ones' packages with apt when running as root, and otherwise
 * says which command to run. `label` prefixes the lines printed (e.g. "[vitest]").
 */
export function ensureTools(
  tools: readonly SystemTool[],
  label: string,
  asRoot = process.getuid?.() === 0,
): EnsureResult {
  const missing = missingTools(tools);
  if (missing.length === 0) return { ok: true, installed: [] };
  const packages = [...new Set(missing.map((tool) => tool.debianPackage))];
  const command = `sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`;
  const names = missing.map((tool) => tool.command).join(", ");
  if (!asRoot) {
    return {
      ok: false,
      message: `${label} ${names} (Debian package ${packages.join(", ")}) is missing: run \`${command}\`${packages.includes("chromium") ? " (or set CHROMIUM_PATH for a Chromium elsewhere)" : ""}, then try again.`,
    };
  }
  console.log(`${label} installing Debian's ${packages.join(", ")} with apt (once)…`);
  if (!aptInstall(packages)) {
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    aptInstall(packages);
  }
  const stillMissing = missingTools(missing);
  if (stillMissing.length > 0) {
    return {
      ok: false,
      message: `${label} apt could not install ${stillMissing.map((t) => t.debianPackage).join(", ")}: run \`${command}\` and look at its output.`,
    };
  }
  return { ok: true, installed: packages };
}

/** redis-server: the Redis store tests (revocations; shared state across instances). */
export const REDIS_SERVER: SystemTool = { command: "redis-server", debianPackage: "redis-server" };

/** PostgreSQL 15's server: the mirror's tests run their PostgreSQL store against a real server (test/postgres-server.ts). */
export const POSTGRESQL: SystemTool = { command: "/usr/lib/postgresql/15/bin/postgres", debianPackage: "postgresql" };

/** haproxy: the load balancer of `npm run start:cluster` (one address in front of several instances). */
export const HAPROXY: SystemTool = { command: "haproxy", debianPackage: "haproxy" };

/** Debian's Chromium, the browser of the Playwright suite (Playwright's own download cannot work offline). */
export function chromiumTool(): SystemTool {
  return { command: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", debianPackage: "chromium" };
}
