import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { ConfigError, parseConfig } from "./config";

const LONG = "a-session-password-of-at-least-32-characters";
const OLD = "an-older-session-password-32-characters-long";

describe("parseConfig", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "ffd-config-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("defaults to the sandbox's address and documented values; SANDBOX=1 says it is the sandbox", () => {
    const warnings: string[] = [];
    const config = parseConfig({ SANDBOX: "1" }, { cwd: tempDir(), warn: (m) => warnings.push(m) });
    expect(config.upstream).toMatchObject({
      baseUrl: "http://127.0.0.1:4010/api/v1",
      budget: 60,
      windowMs: 60_000,
      timeoutMs: 15_000,
      interactiveMaxWaitMs: 30_000,
      isSandbox: true,
    });
    expect(config.session).toMatchObject({
      secureCookie: true,
      cookieName: "__Host-ffd_session",
      idleMs: 30 * 60_000,
      absoluteMs: 12 * 3_600_000,
      generatedSecret: true,
    });
    expect(config.cacheTtlMs).toEqual({ account: 30_000, transactions: 20_000, summary: 60_000, locations: 300_000 });
    expect(warnings).toHaveLength(1);
  });

  it("generates a local secret once, owner-only, and reuses it", () => {
    const cwd = tempDir();
    const first = parseConfig({ SANDBOX: "1" }, { cwd, warn: () => undefined });
    const file = join(cwd, ".data/session-secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = parseConfig({ SANDBOX: "1" }, { cwd, warn: () => undefined });
    expect(second.session.passwords).toEqual(first.session.passwords);
    expect(Object.values(first.session.passwords)[0]).toBe(readFileSync(file, "utf8").trim());
  });

  it("rotates passwords: the newest seals (highest id), all unseal; explicit ids survive dropping the oldest", () => {
    expect(parseConfig({ SANDBOX: "1", SESSION_SECRET: `${LONG},${OLD}` }).session.passwords).toEqual({
      "2": LONG,
      "1": OLD,
    });
    expect(parseConfig({ SANDBOX: "1", SESSION_SECRET: `3:${LONG},2:${OLD}` }).session.passwords).toEqual({
      "3": LONG,
      "2": OLD,
    });
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: `2:${LONG},2:${OLD}` })).toThrow(/used twice/);
  });

  it("treats only real loopback hosts as the sandbox, and only with SANDBOX=1", () => {
    const sandbox = (url: string) => parseConfig({ SANDBOX: "1", FLEET_API_BASE_URL: url, SESSION_SECRET: LONG });
    expect(sandbox("http://127.0.0.1:4010/api/v1").upstream.isSandbox).toBe(true);
    expect(sandbox("http://[::1]:4010/api/v1").upstream.isSandbox).toBe(true);
    expect(() => sandbox("http://127.0.0.1.nip.io/api/v1")).toThrow(
      /SANDBOX=1 says the upstream is this project's sandbox/,
    );
    expect(() => sandbox("https://api.example.com/api/v1")).toThrow(
      /runs on this machine only, but FLEET_API_BASE_URL points at api\.example\.com; unset SANDBOX/,
    );
  });

  it("refuses a name that merely starts with 127. as plain http", () => {
    expect(() => parseConfig({ FLEET_API_BASE_URL: "http://127.0.0.1.nip.io/api/v1", SESSION_SECRET: LONG })).toThrow(
      /must use https/,
    );
  });

  it("names every bad variable at once, the checks across variables included", () => {
    let error: unknown;
    try {
      parseConfig({
        FLEET_API_BUDGET: "lots",
        SESSION_IDLE_MINUTES: "0",
        LOG_LEVEL: "loud",
        REDIS_URL: "http://x",
        TRUST_PROXY: "maybe",
        SESSION_SECRET: "short",
        BFF_TEST_HOOKS: "tiny",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of [
      "FLEET_API_BUDGET",
      "SESSION_IDLE_MINUTES",
      "LOG_LEVEL",
      "REDIS_URL",
      "TRUST_PROXY",
      "SESSION_SECRET",
      "BFF_TEST_HOOKS",
    ])
      expect(problems).toContain(name);
  });

  it("requires SESSION_SECRET and https for a remote upstream, and refuses short passwords", () => {
    expect(() => parseConfig({ FLEET_API_BASE_URL: "https://api.example.com/api/v1" })).toThrow(
      /SESSION_SECRET is required/,
    );
    expect(() => parseConfig({ FLEET_API_BASE_URL: "http://api.example.com/api/v1", SESSION_SECRET: LONG })).toThrow(
      /must use https/,
    );
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: "short" })).toThrow(/at least 32/);
    expect(() =>
      parseConfig({
        FLEET_API_BASE_URL: "https://api.example.com/api/v1",
        SESSION_SECRET: LONG,
        BFF_TEST_HOOKS: "a-long-enough-test-token",
      }),
    ).toThrow(/BFF_TEST_HOOKS/);
    expect(
      parseConfig({
        FLEET_API_BASE_URL: "http://10.0.0.5/api/v1",
        FLEET_API_ALLOW_INSECURE_HTTP: "true",
        SESSION_SECRET: LONG,
      }).upstream.allowInsecureHttp,
    ).toBe(true);
  });

  it("offers the demo key pair only as a pair and only against the sandbox", () => {
    const env = { SANDBOX: "1", SESSION_SECRET: LONG };
    expect(parseConfig(env).demoKey).toBeUndefined();
    expect(parseConfig({ ...env, DEMO_KEY_ID: " ffk_demo ", DEMO_KEY_SECRET: "s3cret" }).demoKey).toEqual({
      keyId: "ffk_demo",
      secret: "s3cret",
    });
    expect(() => parseConfig({ ...env, DEMO_KEY_ID: "ffk_demo" })).toThrow(
      /DEMO_KEY_ID and DEMO_KEY_SECRET go together/,
    );
    expect(() => parseConfig({ ...env, DEMO_KEY_SECRET: "s3cret" })).toThrow(/go together/);
    expect(() =>
      parseConfig({
        FLEET_API_BASE_URL: "https://api.example.com/api/v1",
        SESSION_SECRET: LONG,
        DEMO_KEY_ID: "ffk_demo",
        DEMO_KEY_SECRET: "s3cret",
      }),
    ).toThrow(/only be set when the upstream is the sandbox/);
  });

  it("reads extra public origins for the CSRF check", () => {
    expect(
      parseConfig({
        SANDBOX: "1",
        SESSION_SECRET: LONG,
        PUBLIC_ORIGINS: "https://fleet.example.com, https://fleet2.example.com",
      }).publicOrigins,
    ).toEqual(["https://fleet.example.com", "https://fleet2.example.com"]);
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, PUBLIC_ORIGINS: "fleet.example.com" })).toThrow(
      /PUBLIC_ORIGINS/,
    );
  });

  it("drops Secure and the __Host- prefix only when asked", () => {
    expect(parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_INSECURE_COOKIE: "true" }).session).toMatchObject({
      secureCookie: false,
      cookieName: "ffd_session",
    });
  });

  it("keeps signed-out sessions in .data/sessions.db by default, or in SESSION_DB (relative to the app's folder)", () => {
    const cwd = tempDir();
    expect(parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG }, { cwd }).session.dbPath).toBe(
      join(cwd, ".data/sessions.db"),
    );
    expect(
      parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: " state/revoked.db " }, { cwd }).session.dbPath,
    ).toBe(join(cwd, "state/revoked.db"));
    expect(
      parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: "/var/lib/ffd/sessions.db" }, { cwd }).session
        .dbPath,
    ).toBe("/var/lib/ffd/sessions.db");
  });

  it("refuses a SESSION_DB that is a folder or lies under a file, saying what to give", () => {
    const cwd = tempDir();
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: ".data/" }, { cwd })).toThrow(
      /SESSION_DB must be a file path, e\.g\. \.data\/sessions\.db/,
    );
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: "." }, { cwd })).toThrow(
      /SESSION_DB must be a file path/,
    );
    expect(() => parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: cwd }, { cwd })).toThrow(
      /SESSION_DB: .* is a folder/,
    );
    parseConfig({ SANDBOX: "1" }, { cwd, warn: () => undefined }); // writes the file .data/session-secret
    expect(() =>
      parseConfig({ SANDBOX: "1", SESSION_SECRET: LONG, SESSION_DB: ".data/session-secret/sessions.db" }, { cwd }),
    ).toThrow(/SESSION_DB: .*session-secret is a file/);
  });
});

// Issue 24 item 6: a loopback address is not the sandbox. An operator who reaches the real provider through an egress
// proxy on this machine (http://127.0.0.1:8443) must get none of the sandbox's four conveniences; SANDBOX=1 (set by
// `npm start` when it starts the sandbox) gets all four.
describe("the sandbox's conveniences need SANDBOX=1, not a loopback address", () => {
  const PROXY = "http://127.0.0.1:8443/api/v1";
  const DEMO = { DEMO_KEY_ID: "ffk_demo", DEMO_KEY_SECRET: "s3cret" };
  const TOKEN = "test-hooks-token-0123456789abcdef";
  const problemsOf = (env: Record<string, string>): string => {
    try {
      parseConfig(env, { cwd: mkdtempSync(join(tmpdir(), "ffd-config-")), warn: () => undefined });
      return "";
    } catch (error) {
      return error instanceof ConfigError ? error.problems.join("\n") : String(error);
    }
  };

  it("a loopback upstream without SANDBOX=1: no plain http, no generated secret, no demo key, no test hooks", () => {
    const problems = problemsOf({ FLEET_API_BASE_URL: PROXY, BFF_TEST_HOOKS: TOKEN, ...DEMO });
    expect(problems).toMatch(/FLEET_API_BASE_URL must use https unless the upstream is this project's sandbox/);
    expect(problems).toMatch(/SESSION_SECRET is required unless the upstream is this project's sandbox/);
    expect(problems).toMatch(/DEMO_KEY_ID\/DEMO_KEY_SECRET may only be set when the upstream is the sandbox/);
    expect(problems).toMatch(/BFF_TEST_HOOKS may only be enabled against the sandbox/);
    // The operator's way: https, or plain http to the proxy said out loud, and a real secret. Not the sandbox.
    const config = parseConfig({
      FLEET_API_BASE_URL: PROXY,
      FLEET_API_ALLOW_INSECURE_HTTP: "true",
      SESSION_SECRET: LONG,
    });
    expect(config.upstream.isSandbox).toBe(false);
    expect(config.session.generatedSecret).toBe(false);
    expect(config.demoKey).toBeUndefined();
  });

  it("the sandbox (SANDBOX=1 on loopback): all four", () => {
    const cwd = mkdtempSync(join(tmpdir(), "ffd-config-"));
    const config = parseConfig(
      { SANDBOX: "1", FLEET_API_BASE_URL: "http://127.0.0.1:4010/api/v1", BFF_TEST_HOOKS: TOKEN, ...DEMO },
      { cwd, warn: () => undefined },
    );
    expect(config.upstream).toMatchObject({ isSandbox: true, allowInsecureHttp: false });
    expect(config.session.generatedSecret).toBe(true);
    expect(config.demoKey).toEqual({ keyId: "ffk_demo", secret: "s3cret" });
    expect(config.testHooksToken).toBe(TOKEN);
    rmSync(cwd, { recursive: true, force: true });
  });
});

describe("env files", () => {
  it("git ignores every env file that can hold secrets, and not the documented template", () => {
    const ignored = (path: string) => spawnSync("git", ["check-ignore", "--no-index", "-q", path]).status === 0;
    for (const path of [
      ".env",
      ".env.local",
      ".env.production",
      ".env.production.local",
      ".env.development.local",
      ".env.test.local",
    ])
      expect(ignored(path), path).toBe(true);
    expect(ignored(".env.example")).toBe(false);
  });
});
