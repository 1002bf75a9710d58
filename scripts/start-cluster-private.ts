import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";

import pg from "pg";
import { expect } from "vitest";

// Issue 24 item 5, checked on the services `npm run start:cluster` launched (scripts/start-cluster.test.ts): its
// data folder and files are private, and Redis and PostgreSQL refuse a connection without the password it generated.

const mode = (path: string) => statSync(path).mode & 0o777;

/** Redis's first reply line to PING, sent after AUTH when `password` is given (the wire protocol: no client retries). */
function redisAnswer(port: number, password?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let replies = "";
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      replies += chunk.toString();
      const lines = replies.split("\r\n").filter(Boolean);
      if (lines.length === (password === undefined ? 1 : 2)) {
        socket.destroy();
        resolve(lines.join(" "));
      }
    });
    socket.write(`${password === undefined ? "" : `AUTH ${password}\r\n`}PING\r\n`);
  });
}

async function postgresAnswer(port: number, password?: string): Promise<string> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres", password });
  try {
    await client.connect();
    return String((await client.query<{ ok: number }>("SELECT 1 AS ok")).rows[0]?.ok);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function expectPrivateServices(
  clusterDir: string,
  redisPort: number,
  postgresPort: number,
  output: string,
): Promise<void> {
  // Refused without the password first: what another user of the machine could do.
  expect(await redisAnswer(redisPort)).toMatch(/^-NOAUTH/);
  expect(await postgresAnswer(postgresPort)).toMatch(/password/i);
  const asRoot = process.getuid?.() === 0;
  // 0700, or 0710 with the group postgres as root (PostgreSQL's user passes through to its cluster; nobody else).
  expect(mode(clusterDir)).toBe(asRoot ? 0o710 : 0o700);
  for (const file of ["redis-password", "postgres-password", "session-secret", "redis/redis.conf"])
    expect([file, mode(join(clusterDir, file))]).toEqual([file, 0o600]);
  expect(mode(join(clusterDir, "redis"))).toBe(0o700);
  expect(mode(join(clusterDir, "postgres"))).toBe(0o700);

  const redisPassword = readFileSync(join(clusterDir, "redis-password"), "utf8").trim();
  const postgresPassword = readFileSync(join(clusterDir, "postgres-password"), "utf8").trim();
  expect(output).not.toContain(redisPassword);
  expect(output).not.toContain(postgresPassword);

  expect(await redisAnswer(redisPort, "not-the-password")).toMatch(/^-WRONGPASS .* -NOAUTH/);
  expect(await redisAnswer(redisPort, redisPassword)).toBe("+OK +PONG");

  expect(await postgresAnswer(postgresPort, "not-the-password")).toMatch(/password authentication failed/);
  expect(await postgresAnswer(postgresPort, postgresPassword)).toBe("1");
}

/** One request with `method` through the balancer (node:http: fetch refuses TRACE and CONNECT): status and Allow. */
export function methodAnswer(port: number, method: string, path = "/"): Promise<{ status: number; allow: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, allow: res.headers.allow ?? "" });
    });
    req.on("error", reject);
    req.end();
  });
}
