import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { ensureTools, hasCommand, missingTools } from "./system-packages";

const dir = mkdtempSync(path.join(tmpdir(), "ffd-tools-"));
const present = path.join(dir, "present-tool");
writeFileSync(present, "#!/bin/sh\n");
chmodSync(present, 0o755);
const notExecutable = path.join(dir, "plain-file");
writeFileSync(notExecutable, "");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("system tools of the test suite", () => {
  it("finds a command on PATH or by absolute path, only when executable", () => {
    expect(hasCommand("present-tool", dir)).toBe(true);
    expect(hasCommand(present)).toBe(true);
    expect(hasCommand("plain-file", dir)).toBe(false);
    expect(hasCommand("no-such-tool", dir)).toBe(false);
    expect(hasCommand(path.join(dir, "no-such-tool"))).toBe(false);
  });

  it("lists the missing tools with their packages", () => {
    const tools = [
      { command: "present-tool", debianPackage: "a" },
      { command: "absent-tool", debianPackage: "b" },
    ];
    expect(missingTools(tools, dir)).toEqual([{ command: "absent-tool", debianPackage: "b" }]);
  });

  it("does nothing when every tool is there", () => {
    expect(ensureTools([{ command: present, debianPackage: "x" }], "[t]")).toEqual({ ok: true, installed: [] });
  });

  it("tells a non-root user the exact apt command instead of failing obscurely", () => {
    const result = ensureTools([{ command: path.join(dir, "absent"), debianPackage: "redis-server" }], "[t]", false);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("sudo apt-get install -y redis-server");
  });
});
