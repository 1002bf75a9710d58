import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { sessionDbProblems, sessionPasswords } from "./config-session";

const LONG = "a-session-password-of-at-least-32-characters";
const REMOTE = { host: "api.example.com", isSandbox: false };

describe("config-session", () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "ffd-config-session-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const noLocal = { cwd: "/nonexistent", warn: () => undefined };

  it("takes SESSION_SECRET's passwords, numbered from the end without ids, and names short ones", () => {
    const problems: string[] = [];
    expect(sessionPasswords({ SESSION_SECRET: ` ${LONG} , short ` }, REMOTE, noLocal, problems)).toEqual({
      passwords: { "2": LONG, "1": "short" },
      generatedSecret: false,
    });
    expect(problems).toEqual(["SESSION_SECRET: password 1 is 5 characters; each needs at least 32"]);
  });

  it("generates an owner-only secret for the sandbox, and requires one for any other upstream", () => {
    const cwd = tempDir();
    const warnings: string[] = [];
    const local = sessionPasswords(
      {},
      { host: "127.0.0.1", isSandbox: true },
      { cwd, warn: (m) => warnings.push(m) },
      [],
    );
    expect(local.generatedSecret).toBe(true);
    expect(statSync(join(cwd, ".data/session-secret")).mode & 0o777).toBe(0o600);
    expect(warnings).toHaveLength(1);
    const problems: string[] = [];
    expect(sessionPasswords({}, REMOTE, noLocal, problems).passwords).toEqual({});
    expect(problems[0]).toMatch(/^SESSION_SECRET is required unless the upstream is this project's sandbox/);
    // A loopback address that is not the sandbox (an egress proxy to the real provider) needs one too.
    const proxyProblems: string[] = [];
    sessionPasswords({}, { host: "127.0.0.1", isSandbox: false }, noLocal, proxyProblems);
    expect(proxyProblems[0]).toMatch(/^SESSION_SECRET is required/);
    // An unreadable URL is the schema's problem to name, not this one's.
    expect(sessionPasswords({}, { host: "", isSandbox: false }, noLocal, []).passwords).toEqual({});
  });

  it("accepts a SESSION_DB file that can be created, and names a folder or a file in the way", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a-file"), "");
    expect(sessionDbProblems(join(dir, "new/sessions.db"))).toEqual([]);
    expect(sessionDbProblems(dir)).toEqual([
      `SESSION_DB: ${dir} is a folder; give a file path, e.g. .data/sessions.db`,
    ]);
    expect(sessionDbProblems(join(dir, "a-file/sessions.db"))).toEqual([
      `SESSION_DB: ${join(dir, "a-file")} is a file, so ${join(dir, "a-file/sessions.db")} cannot be created under it`,
    ]);
  });
});
