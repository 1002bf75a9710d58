import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { ConfigError, parseConfig } from "./config";

const LONG = "a-session-password-of-at-least-32-characters";
const cwd = mkdtempSync(join(tmpdir(), "ffd-config-mirror-"));
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

const parse = (env: Record<string, string>) => parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, ...env }, { cwd });
const problems = (env: Record<string, string>): string => {
  try {
    parse(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join("\n");
    throw error;
  }
  throw new Error("the configuration was accepted");
};

describe("the mirror's configuration", () => {
  it("is on by default, in .data/mirror.db under the app's folder, kept 30 days unused", () => {
    expect(parse({}).mirror).toEqual({
      enabled: true,
      path: join(cwd, ".data/mirror.db"),
      databaseUrl: undefined,
      retentionMs: 30 * 86_400_000,
    });
  });

  it("reads MIRROR_ENABLED, MIRROR_PATH, DATABASE_URL and MIRROR_RETENTION_DAYS", () => {
    expect(
      parse({
        MIRROR_ENABLED: "false",
        MIRROR_PATH: " state/fleet.db ",
        DATABASE_URL: "postgres://ffd:pw@db.internal:5432/ffd",
        MIRROR_RETENTION_DAYS: "7",
      }).mirror,
    ).toEqual({
      enabled: false,
      path: join(cwd, "state/fleet.db"),
      databaseUrl: "postgres://ffd:pw@db.internal:5432/ffd",
      retentionMs: 7 * 86_400_000,
    });
  });

  it.each([
    [{ MIRROR_ENABLED: "maybe" }, /MIRROR_ENABLED must be true or false/],
    [{ MIRROR_PATH: ".data/" }, /MIRROR_PATH must be a file path, e\.g\. \.data\/mirror\.db/],
    [{ DATABASE_URL: "mysql://db/ffd" }, /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    [{ MIRROR_RETENTION_DAYS: "0" }, /MIRROR_RETENTION_DAYS must be a whole number from 1 to 3650 \(got "0"\)/],
    [{ MIRROR_RETENTION_DAYS: "a week" }, /MIRROR_RETENTION_DAYS must be a whole number/],
  ])("refuses %o with a message saying what to give", (env, message) => {
    expect(problems(env)).toMatch(message);
  });

  it("names the mirror's problems together with the others'", () => {
    const text = problems({ MIRROR_RETENTION_DAYS: "-1", SESSION_IDLE_MINUTES: "0" });
    expect(text).toMatch(/MIRROR_RETENTION_DAYS/);
    expect(text).toMatch(/SESSION_IDLE_MINUTES/);
  });
});
