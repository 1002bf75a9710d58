import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, inject, it } from "vitest";

import { freePort } from "@/test/net";

/** Whether anything answers HTTP on host:port (127.0.0.2 is loopback too: Linux routes all of 127/8 to lo). */
async function isListening(port: number, host = "127.0.0.1"): Promise<boolean> {
  try {
    await fetch(`http://${host}:${String(port)}/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

function launch(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  waitFor: (re: RegExp, ms: number) => Promise<RegExpExecArray>;
} {
  // Its own process group, so a cleanup can stop the launcher and everything it started at once.
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const waitFor = (re: RegExp, ms: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const started = Date.now();
      const timer = setInterval(() => {
        const match = re.exec(text);
        if (match) {
          clearInterval(timer);
          resolve(match);
        } else if (Date.now() - started > ms || child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`did not see ${String(re)}:\n${text}`));
        }
      }, 100);
    });
  return { child, output: () => text, waitFor };
}

/** SIGKILL to the launcher's whole process group (the sandbox and the app included); quiet if already gone. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already exited
  }
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else
      child.once("exit", (code) => {
        resolve(code);
      });
  });

describe("npm start (scripts/start.ts)", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("starts the sandbox and the app on PORT/SANDBOX_PORT, prints the demo key pair and stops both on Ctrl-C", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ffd-start-"));
    const db = join(dir, "sandbox.db");
    copyFileSync(inject("sandboxTemplateDb"), db);
    const [appPort, sandboxPort] = [await freePort(), await freePort()];
    const logDir = join(dir, "logs");
    const env: Record<string, string> = {
      PORT: String(appPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DB: db,
      LOG_DIR: logDir,
    };
    // A .data/ other users can list (as a checkout under umask 022 used to leave it) is narrowed at start, with a line.
    const dataDir = join(process.cwd(), ".data");
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o755);
    const run = launch({ ...env, FLEET_API_BASE_URL: "" });
    cleanups.push(() => {
      killGroup(run.child);
      rmSync(dir, { recursive: true, force: true });
    });

    await run.waitFor(new RegExp(`Dashboard: http://localhost:${String(appPort)}`), 170_000);
    expect(statSync(dataDir).mode & 0o066).toBe(0);
    expect(run.output()).toMatch(/\.data was mode 0755 .*owner-only \(0700\)/);
    expect(run.output()).toMatch(/key_id\s+ffk_/);
    expect((await fetch(`http://127.0.0.1:${String(sandboxPort)}/healthz`)).status).toBe(200);
    // The app answers; without a session its pages send the browser to the login page.
    const page = await fetch(`http://127.0.0.1:${String(appPort)}/`, { redirect: "manual" });
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/login");

    // The login page offers the sandbox's demo key by its id; the secret stays on the server, and signing in with
    // it works.
    // The banner: the URL, the demo pair, where the logs go (issue 26: it no longer scrolls away).
    const keyId = /^\[start\] {3}key_id {2}(ffk_\S+)$/m.exec(run.output())?.[1] ?? "";
    const secret = /^\[start\] {3}secret {2}(\S+)$/m.exec(run.output())?.[1] ?? "";
    expect(run.output()).toContain(`[start] Logs: ${join(logDir, "sandbox.log")}, ${join(logDir, "app.log")}`);
    expect(keyId).not.toBe("");
    const login = await (await fetch(`http://127.0.0.1:${String(appPort)}/login`)).text();
    expect(login).toContain("Sign in with the demo key");
    expect(login).toContain(keyId);
    expect(login).not.toContain(secret);
    const origin = `http://127.0.0.1:${String(appPort)}`;
    const demo = await fetch(`${origin}/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest", Origin: origin },
      body: JSON.stringify({ demo: true }),
    });
    expect(demo.status, await demo.clone().text()).toBe(200);
    expect(((await demo.json()) as { customer: { code: string } }).customer.code).toBe("PFL");
    // Requests are logged to the file, not to the terminal (only warnings and errors there, made readable).
    const appLog = () => readFileSync(join(logDir, "app.log"), "utf8");
    while (!appLog().includes('"route":"POST /api/session"')) await new Promise((r) => setTimeout(r, 100));
    expect(appLog()).toMatch(/^\{"level":30,.*"msg":"request"\}$/m);
    expect(readFileSync(join(logDir, "sandbox.log"), "utf8")).toMatch(/\[sandbox\] POST \/api\/v1\/auth 200/);
    expect(run.output()).not.toContain('"msg":"request"');
    expect(run.output()).not.toContain("[sandbox] POST");

    run.child.kill("SIGINT");
    expect(await exitOf(run.child)).toBe(0);
    expect(await isListening(appPort)).toBe(false);
    expect(await isListening(sandboxPort)).toBe(false);
  }, 200_000);

  it("does not start the sandbox when FLEET_API_BASE_URL is set", async () => {
    const [appPort, sandboxPort] = [await freePort(), await freePort()];
    // An upstream on this machine that is not the sandbox (e.g. an egress proxy to the provider): said out loud.
    const run = launch({
      PORT: String(appPort),
      SANDBOX_PORT: String(sandboxPort),
      FLEET_API_BASE_URL: "http://127.0.0.1:9/api/v1",
      FLEET_API_ALLOW_INSECURE_HTTP: "true",
      SESSION_SECRET: "a-session-password-of-at-least-32-characters",
    });
    cleanups.push(() => {
      killGroup(run.child);
    });
    await run.waitFor(new RegExp(`Dashboard: http://localhost:${String(appPort)}`), 170_000);
    expect(run.output()).toContain("http://127.0.0.1:9/api/v1");
    expect(await isListening(sandboxPort)).toBe(false);
    // Without HOST the app listens on 127.0.0.1 only, not on every interface: another address of this machine
    // (127.0.0.2, which a wildcard listener would answer) gets no answer.
    expect(await isListening(appPort, "127.0.0.1")).toBe(true);
    expect(await isListening(appPort, "127.0.0.2")).toBe(false);
    // No sandbox started by us: no demo key offered (SANDBOX is not set, and a loopback address does not imply it).
    expect(await (await fetch(`http://127.0.0.1:${String(appPort)}/login`)).text()).not.toContain(
      "Sign in with the demo key",
    );
    run.child.kill("SIGTERM");
    expect(await exitOf(run.child)).toBe(0);
  }, 200_000);

  it("gives a loopback FLEET_API_BASE_URL without SANDBOX=1 none of the sandbox's conveniences: no generated secret, no plain http", async () => {
    // Issue 24 item 6: a loopback egress proxy to the real provider must not be taken for the sandbox.
    const run = launch({
      PORT: String(await freePort()),
      FLEET_API_BASE_URL: "http://127.0.0.1:9/api/v1",
      SANDBOX: "",
    });
    cleanups.push(() => {
      killGroup(run.child);
    });
    expect(await exitOf(run.child)).not.toBe(0);
    expect(run.output()).toMatch(
      /SESSION_SECRET is required unless the upstream is this project's sandbox \(SANDBOX=1/,
    );
    expect(run.output()).toMatch(/FLEET_API_BASE_URL must use https unless the upstream is this project's sandbox/);
  }, 200_000);

  it("listens where HOST says, and only there", async () => {
    const appPort = await freePort();
    // SANDBOX=1: the upstream is a sandbox started by hand (`npm run sandbox`), so the app needs no secret of its own.
    const run = launch({
      PORT: String(appPort),
      HOST: "127.0.0.2",
      FLEET_API_BASE_URL: "http://127.0.0.1:9/api/v1",
      SANDBOX: "1",
    });
    cleanups.push(() => {
      killGroup(run.child);
    });
    await run.waitFor(new RegExp(`Dashboard: http://127\\.0\\.0\\.2:${String(appPort)}`), 170_000);
    expect(await isListening(appPort, "127.0.0.2")).toBe(true);
    expect(await isListening(appPort, "127.0.0.1")).toBe(false);
    run.child.kill("SIGTERM");
    expect(await exitOf(run.child)).toBe(0);
  }, 200_000);

  it("refuses a bad HOST with a clear message", async () => {
    const run = launch({ HOST: "http://0.0.0.0:3000", FLEET_API_BASE_URL: "http://127.0.0.1:9/api/v1" });
    cleanups.push(() => {
      killGroup(run.child);
    });
    expect(await exitOf(run.child)).toBe(2);
    expect(run.output()).toMatch(/HOST must be an address or host name to listen on, e\.g\. 127\.0\.0\.1/);
  }, 30_000);

  it("refuses a bad PORT with a clear message", async () => {
    const run = launch({ PORT: "http", FLEET_API_BASE_URL: "http://127.0.0.1:9/api/v1" });
    cleanups.push(() => {
      killGroup(run.child);
    });
    expect(await exitOf(run.child)).toBe(2);
    expect(run.output()).toContain("PORT");
  }, 30_000);
});
