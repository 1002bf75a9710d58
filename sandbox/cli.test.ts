import { execFile, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { findKey, verifySecret } from "./db/keys";
import { openDatabase } from "./db/open";
import { EXCEPTION_CASE_ROWS } from "./db/seed-exceptions";

const run = promisify(execFile);
const TSX = ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts"];

describe("sandbox command line", () => {
  let dir: string;
  let db: string;
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [...TSX, ...args, "--db", db]);
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  const keyCount = () => {
    const { db: handle } = openDatabase({ path: db });
    try {
      return (handle.prepare("SELECT COUNT(*) AS n FROM api_keys").get() as { n: number }).n;
    } finally {
      handle.close();
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ffd-cli-"));
    db = join(dir, "sandbox.db");
    copyFileSync(inject("sandboxTemplateDb"), db);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("customers list --json lists at least two customers", async () => {
    const { code, stdout } = await cli("customers", "list", "--json");
    expect(code).toBe(0);
    const customers = JSON.parse(stdout) as { code: string; transactions: number }[];
    expect(customers.map((c) => c.code).sort()).toEqual(["CHI", "PFL"]);
  });

  it("keys create prints the pair once; list never shows a secret; revoke marks it revoked", async () => {
    const created = await cli(
      "keys",
      "create",
      "--customer",
      "PFL",
      "--scopes",
      "account,locations",
      "--allow",
      "10.0.0.1",
      "--json",
    );
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { key_id: string; secret: string; customer: string };
    expect(key.key_id).toMatch(/^ffk_/);
    expect(key.secret.length).toBeGreaterThan(20);
    expect(key.customer).toBe("PFL");

    const listed = await cli("keys", "list", "--json");
    expect(listed.stdout).not.toContain(key.secret);
    const keys = JSON.parse(listed.stdout) as {
      key_id: string;
      scopes: string[];
      allow_ips: string[] | null;
      revoked_at: string | null;
    }[];
    expect(keys.find((k) => k.key_id === key.key_id)).toMatchObject({
      scopes: ["account", "locations"],
      allow_ips: ["10.0.0.1"],
      revoked_at: null,
    });
    const text = await cli("keys", "list");
    expect(text.stdout).not.toContain(key.secret);

    expect((await cli("keys", "revoke", key.key_id)).code).toBe(0);
    const after = JSON.parse((await cli("keys", "list", "--json")).stdout) as {
      key_id: string;
      revoked_at: string | null;
    }[];
    expect(after.find((k) => k.key_id === key.key_id)?.revoked_at).not.toBeNull();
  });

  it("keys demo prints the seeded demo pairs, which authenticate", async () => {
    const { code, stdout } = await cli("keys", "demo", "--json");
    expect(code).toBe(0);
    const pairs = JSON.parse(stdout) as { label: string; key_id: string; secret: string }[];
    expect(pairs.map((p) => p.label)).toEqual([
      "demo-full",
      "demo-no-transactions",
      "demo-revoked",
      "demo-allowlist",
      "other-full",
    ]);
    const full = pairs[0];
    const { db: handle } = openDatabase({ path: db });
    try {
      const key = findKey(handle, full?.key_id ?? "");
      expect(key).toBeDefined();
      expect(await verifySecret(full?.secret ?? "", key?.secretHash ?? "")).toBe(true);
    } finally {
      handle.close();
    }
  });

  it.each([
    [["keys", "create"], "--customer"],
    [["keys", "create", "--customer", "NOPE"], "NOPE"],
    [["keys", "create", "--customer", "PFL", "--scopes", "write"], "write"],
    [["keys", "revoke", "ffk_missing"], "ffk_missing"],
    [["frobnicate"], "unknown command"],
    [["--port", "99999"], "--port"],
    [["--profile", "beta"], "--profile"],
    [["--no-such-flag"], "no-such-flag"],
    [["--failed-auth-budget", "0"], "--failed-auth-budget"],
    [["--failed-auth-budget", "many"], "--failed-auth-budget"],
  ])("exits 2 with a clear message for %j", async (args, named) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(named);
  });

  it.each([
    ["10.0.0.0/8", "CIDR ranges are not supported"],
    ["10.0.0.1,not-an-ip", "plain IPv4 or IPv6"],
    ["10.0.0.256", "plain IPv4 or IPv6"],
    ["fe80::1%eth0", "plain IPv4 or IPv6"],
    [",", "at least one"],
  ])("keys create --allow %j exits 2 naming the bad value and creates no key", async (allow, says) => {
    const before = keyCount();
    const { code, stderr } = await cli("keys", "create", "--customer", "PFL", "--allow", allow);
    expect(code).toBe(2);
    expect(stderr).toContain(says);
    const bad = allow.split(",").find((v) => v !== "" && v !== "10.0.0.1");
    if (bad !== undefined) expect(stderr).toContain(`"${bad}"`);
    expect(keyCount()).toBe(before);
  });

  it("keys create --allow stores IPv4, canonical IPv6 and IPv4-mapped IPv6 as the socket reports them", async () => {
    const created = await cli(
      "keys",
      "create",
      "--customer",
      "PFL",
      "--allow",
      " 192.0.2.7, 2001:DB8:0:0:0:0:0:1 ,::ffff:198.51.100.9,::1",
      "--json",
    );
    expect(created.code).toBe(0);
    const { key_id: keyId } = JSON.parse(created.stdout) as { key_id: string };
    const keys = JSON.parse((await cli("keys", "list", "--json")).stdout) as {
      key_id: string;
      allow_ips: string[] | null;
    }[];
    expect(keys.find((k) => k.key_id === keyId)?.allow_ips).toEqual([
      "192.0.2.7",
      "2001:db8::1",
      "198.51.100.9",
      "::1",
    ]);
  });

  const serve = async (...args: string[]) => {
    const child = spawn(process.execPath, [...TSX, "--port", "0", "--db", db, "--quiet", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no URL printed:\n${output}`));
      }, 30_000);
      child.stdout.on("data", () => {
        const match = /at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(output);
        if (match?.[1] && output.includes("secret")) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    return { child, url, output: () => output };
  };
  const stop = async (child: ReturnType<typeof spawn>) => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    return exited;
  };

  it("serves on the given port, prints the URL and demo key, answers /healthz and stops on SIGTERM", async () => {
    const { child, url, output } = await serve();
    expect(output()).toMatch(/key_id\s+ffk_/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await stop(child)).toBe(0);
  });

  it("--live N adds a transaction for the demo customer every N seconds", async () => {
    const before =
      (JSON.parse((await cli("customers", "list", "--json")).stdout) as { code: string; transactions: number }[]).find(
        (c) => c.code === "PFL",
      )?.transactions ?? 0;
    const { child, output } = await serve("--live", "1");
    try {
      // Polled: the line may reach the pipe after the URL line that serve() waits for.
      await expect.poll(() => output()).toContain("live: a new PFL transaction every 1 s");
      // Polls the database (no timing assert): at least one new row arrives while the server runs.
      for (let i = 0; i < 100; i++) {
        const now =
          (
            JSON.parse((await cli("customers", "list", "--json")).stdout) as { code: string; transactions: number }[]
          ).find((c) => c.code === "PFL")?.transactions ?? 0;
        if (now > before) break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const after =
        (
          JSON.parse((await cli("customers", "list", "--json")).stdout) as { code: string; transactions: number }[]
        ).find((c) => c.code === "PFL")?.transactions ?? 0;
      expect(after).toBeGreaterThan(before);
    } finally {
      await stop(child);
    }
  });

  it("--failed-auth-budget N: the (N+1)th failed key-pair check from an address in a window is 429", async () => {
    // A day-long window, so the three attempts (well under a second) all but surely share one.
    const { child, url } = await serve("--failed-auth-budget", "2", "--window-seconds", "86400");
    try {
      const attempt = () =>
        fetch(`${url}/api/v1/auth`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ key_id: "ffk_000000000000000000000000", secret: "ffs_guess" }),
        });
      expect([(await attempt()).status, (await attempt()).status]).toEqual([401, 401]);
      const third = await attempt();
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await stop(child);
    }
  });

  it("--reset recreates the database from the seed (keys created since are gone)", async () => {
    const created = JSON.parse((await cli("keys", "create", "--customer", "CHI", "--json")).stdout) as {
      key_id: string;
    };
    expect((await cli("keys", "list")).stdout).toContain(created.key_id);
    const { child, output } = await serve("--reset", "--seed", "5", "--transactions", "300", "--stations", "200");
    expect(output()).toContain("seeded");
    expect(await stop(child)).toBe(0);
    expect((await cli("keys", "list")).stdout).not.toContain(created.key_id);
    const customers = JSON.parse((await cli("customers", "list", "--json")).stdout) as {
      code: string;
      transactions: number;
    }[];
    // The 300 generated and the seeded exception cases (db/seed-exceptions.ts).
    expect(customers.find((c) => c.code === "PFL")?.transactions).toBe(300 + EXCEPTION_CASE_ROWS);
  }, 60_000);
});
