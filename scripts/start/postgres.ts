/**
 * Debian's PostgreSQL 15 server run by us (no system service): a cluster made with initdb in a directory of ours,
 * listening on 127.0.0.1 only. initdb leaves trust authentication (what a throwaway test server uses); the kept
 * cluster of `npm run start:cluster` replaces it with passwords (PASSWORD_HBA) before its server starts. One home for
 * how it is made and started: test/postgres-server.ts (a throwaway server per test file) and
 * scripts/start-cluster.ts (a kept one under .data/cluster/) both use these.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

/** Debian's PostgreSQL 15 server binaries (package `postgresql`). */
export const POSTGRES_BIN = "/usr/lib/postgresql/15/bin";

/**
 * pg_hba.conf of the kept cluster: a password (SCRAM) for every connection, over TCP from loopback and over the
 * socket. Written at every start, so a cluster made before passwords were required (trust) gets them too.
 */
export const PASSWORD_HBA = [
  "# Written by npm run start:cluster at every start (scripts/start/postgres.ts): every connection needs the password.",
  "local all all scram-sha-256",
  "host all all 127.0.0.1/32 scram-sha-256",
  "",
].join("\n");

/** initdb's arguments for a cluster in `data` whose superuser `postgres` logs in without a password on loopback. */
export function initdbArgs(data: string, { durable }: { durable: boolean }): string[] {
  return ["-D", data, "-U", "postgres", "--auth=trust", ...(durable ? [] : ["--no-sync"]), "-E", "UTF8", "--locale=C"];
}

/**
 * The server's arguments: loopback and `port` only, its socket in `socketDir` (not /run/postgresql, which may not
 * exist). Without `durable` (tests), no fsync: a test needs no durability and runs faster.
 */
export function serverArgs(data: string, port: number, socketDir: string, { durable }: { durable: boolean }): string[] {
  return [
    "-D",
    data,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    `unix_socket_directories=${socketDir}`,
    ...(durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
  ];
}

/** The ids of the `postgres` user when we are root (PostgreSQL refuses to run as root), else undefined: ourselves. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export const postgresBin = (name: string): string => join(POSTGRES_BIN, name);
