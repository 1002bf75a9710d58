import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, inject, it } from "vitest";

import { TestBrowser } from "@/test/browser";
import { accepts, freePort } from "@/test/net";

import { haproxyConfig } from "./start/cluster-services";
import { expectPrivateServices, methodAnswer } from "./start-cluster-private";

// `npm run start:cluster -- --instances 2` for real: Debian's redis-server, PostgreSQL and haproxy started by the
// launcher, the sandbox, two built app instances; a sign-in through haproxy's address, requests answered by both
// instances, and a Ctrl-C (SIGINT to the process group, as a terminal sends it) that leaves no process behind.

/** A first port whose next two are free too (the balancer on PORT, the instances on PORT+1 and PORT+2). */
async function threeFreePorts(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_000 && !(await accepts(port + 1)) && !(await accepts(port + 2))) return port;
  }
}

/** Whether any process of the group is still there (signal 0 probes without signalling). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm run start:cluster (scripts/start-cluster.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "ffd-start-cluster-"));
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as the postgres user, who must reach its data folder inside
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a round-robin haproxy configuration with a health check per instance", () => {
    const config = haproxyConfig({ host: "127.0.0.1", port: 3000 }, [3001, 3002]);
    expect(config).toContain("bind 127.0.0.1:3000");
    expect(config).toContain("balance roundrobin");
    // Liveness, not /api/healthz: an upstream, Redis or PostgreSQL outage must not mark every instance down at once.
    expect(config).toContain("option httpchk GET /api/livez");
    expect(config).not.toContain("/api/healthz");
    expect(config).toMatch(/server app1 127\.0\.0\.1:3001 check/);
    expect(config).toMatch(/server app2 127\.0\.0\.1:3002 check/);
  });

  it("refuses a bad --instances with a clear message, before starting anything", async () => {
    const run = spawn(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/start-cluster.ts", "--instances", "0"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let text = "";
    run.stderr.on("data", (c: Buffer) => (text += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      run.once("exit", (exitCode) => {
        resolve(exitCode);
      });
    });
    expect(code).toBe(2);
    expect(text).toContain('--instances must be a whole number from 1 to 16; got "0".');
  });

  it("starts two instances behind haproxy: a sign-in through it, both instances answer, Ctrl-C leaves nothing", async () => {
    const db = join(dir, "sandbox.db");
    copyFileSync(inject("sandboxTemplateDb"), db);
    const [port, sandboxPort] = [await threeFreePorts(), await freePort()];
    child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start-cluster.ts", "--instances", "2"], {
      env: {
        ...process.env,
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_DB: db,
        CLUSTER_DATA_DIR: join(dir, "cluster"),
        FLEET_API_BASE_URL: "",
        REDIS_URL: "",
        DATABASE_URL: "",
        SESSION_SECRET: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, as a terminal gives it
    });
    let output = "";
    child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => {
      child?.once("exit", (code) => {
        resolve(code);
      });
    });
    for (let i = 0; !output.includes("[start] Dashboard (haproxy"); i++) {
      if (child.exitCode !== null || i > 1_700) throw new Error(`the cluster did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toMatch(new RegExp(`http://localhost:${String(port)}`));
    // Neither REDIS_URL nor DATABASE_URL was given: the launcher started both, with passwords it never prints.
    const shared =
      /\[start\] Shared state: redis:\/\/(\S*@)?127\.0\.0\.1:(\d+); mirror: postgres:\/\/(\S*@)?127\.0\.0\.1:(\d+)\//.exec(
        output,
      );
    expect(shared, output).not.toBeNull();
    await expectPrivateServices(join(dir, "cluster"), Number(shared?.[2]), Number(shared?.[4]), output);
    expect([shared?.[1], shared?.[3]]).toEqual([":***@", "postgres:***@"]);

    // The demo key pair the sandbox printed; a sign-in through the balancer, then pages through it.
    const keyId = /key_id\s+(ffk_\S+)/.exec(output)?.[1] ?? "";
    const secret = /secret\s+(\S+)/.exec(output)?.[1] ?? "";
    const b = new TestBrowser(`http://127.0.0.1:${String(port)}`);
    expect((await b.login(keyId, secret)).status).toBe(200);
    const cookie = b.cookie;
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await b.fetch("/api/account");
      expect(res.status).toBe(200);
      servedBy.add(res.res.headers.get("x-served-by") ?? "");
    }
    // Round robin: the one session (one shared secret, Redis) is answered by both instances.
    expect([...servedBy].sort()).toEqual(["app1", "app2"]);
    // A sign-out through the balancer reaches one instance; the revocation is in Redis, so both refuse the cookie.
    expect((await b.fetch("/api/session", { method: "DELETE" })).status).toBeLessThan(300);
    const refusedBy = new Set<string>();
    const signedOut = new TestBrowser(b.origin);
    signedOut.cookie = cookie;
    for (let i = 0; i < 4; i++) {
      const res = await signedOut.fetch("/api/account");
      expect(res.status).toBe(401);
      refusedBy.add(res.res.headers.get("x-served-by") ?? "");
    }
    expect([...refusedBy].sort()).toEqual(["app1", "app2"]);
    // TRACE reaches no instance (Next answers it with an unlogged 500): the balancer refuses it with a 405.
    expect(await methodAnswer(port, "TRACE", "/favicon.svg")).toEqual({
      status: 405,
      allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    });
    expect(readFileSync(join(dir, "cluster", "haproxy.cfg"), "utf8")).toContain(`127.0.0.1:${String(port + 2)}`);

    const pgid = child.pid ?? 0;
    process.kill(-pgid, "SIGINT");
    expect(await exited).toBe(0);
    for (let i = 0; groupAlive(pgid) && i < 100; i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(pgid)).toBe(false);
    expect(await accepts(port)).toBe(false);
    expect(output).toContain("[start] Stopped.");
  }, 240_000);
});
