/**
 * The shared services of `npm run start:cluster` (scripts/start-cluster.ts), from Debian's packages, under a data
 * directory of ours: redis-server (the instances' shared state), PostgreSQL (the mirror) and haproxy (one address,
 * round robin over the instances, each checked on /api/livez). Each runs in the foreground as a child of the
 * launcher, so Ctrl-C stops it with everything else (./children.ts).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import pg from "pg";

import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from "../../lib/private-files";
import { lifecycle, spawnChild, spawnService } from "./children";
import { log } from "./log";
import { initdbArgs, PASSWORD_HBA, postgresBin, postgresUser, serverArgs } from "./postgres";
import { waitForHttp } from "./readiness";

const READY_TIMEOUT_MS = 60_000;
/** rwx for us, x for the group (postgres, as root): see prepareDataDir. */
const PASSABLE_BY_GROUP = 0o710;
/** The database the mirror lives in on the PostgreSQL we start. */
const DATABASE = "fleet_dashboard";

/** A port nobody listens on now, from the system (for the services only the instances reach). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        resolve(typeof address === "object" && address ? address.port : 0);
      });
    });
  });
}

async function waitFor(what: string, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await ready())) {
    lifecycle.signal.throwIfAborted();
    if (Date.now() > deadline) throw new Error(`${what} did not start in ${String(READY_TIMEOUT_MS / 1000)} s.`);
    await delay(100);
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      resolve(false);
    });
  });

/**
 * The launcher's data folder (CLUSTER_DATA_DIR), 0700 like the app's `.data/`. As root, PostgreSQL runs as the
 * postgres user, who must pass through it — and through `.data` above it, the default layout — to reach its cluster:
 * those folders get the group postgres and mode 0710 (that group may pass through, nobody else may, and no one but
 * us may list them). The files in them stay 0600 and the cluster's own folder is the postgres user's, 0700.
 */
export function prepareDataDir(dataDir: string, withPostgres: boolean): void {
  ensurePrivateDir(dataDir, { dedicated: true, warn: log });
  const user = withPostgres ? postgresUser() : undefined;
  if (!user) return;
  const parent = path.dirname(dataDir);
  for (const dir of path.basename(parent) === ".data" ? [dataDir, parent] : [dataDir]) {
    chownSync(dir, process.getuid?.() ?? 0, user.gid);
    chmodSync(dir, PASSABLE_BY_GROUP);
  }
}

/**
 * A password kept in `file` (owner-only, 0600): generated once, then reused, so a restart keeps the same one (the
 * PostgreSQL role's, the instances' URLs). Hex, so it needs no escaping in a URL or a configuration file.
 */
function servicePassword(file: string, what: string): string {
  if (existsSync(file)) {
    ensurePrivateFile(file, { warn: log });
    const existing = readFileSync(file, "utf8").trim();
    if (/^[0-9a-f]{32,}$/.test(existing)) return existing;
  }
  const password = randomBytes(24).toString("hex");
  writeFileSync(file, `${password}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
  log(`Generated a password for ${what} in ${file} (owner-only).`);
  return password;
}

/** A URL with its password shown as *** (for the log lines: the password is in its file, never printed). */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  return parsed.toString().replace(/\/$/, "");
}

/**
 * redis-server on loopback, its append-only file under `dir` (revocations and sign-in limits survive a restart), with
 * a password (`requirepass`, from `passwordFile`): any user of the machine can reach a loopback port, and whoever
 * could talk to this Redis could delete a revocation and revive a signed-out cookie. The password goes in a 0600
 * configuration file, not on the command line (which every local user sees in `ps`).
 */
export async function startRedis(dir: string, passwordFile: string): Promise<string> {
  ensurePrivateDir(dir, { dedicated: true, warn: log });
  const password = servicePassword(passwordFile, "Redis");
  const conf = path.join(dir, "redis.conf");
  writeFileSync(conf, `requirepass ${password}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(conf, PRIVATE_FILE_MODE);
  const port = await freePort();
  spawnService(
    "redis-server",
    [conf, "--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
    process.env,
    { command: "redis-server" },
  );
  await waitFor("redis-server", () => accepts(port));
  return `redis://:${password}@127.0.0.1:${String(port)}`;
}

/**
 * The superuser's password set in single-user mode (no server, no connection: before the server starts, whatever
 * pg_hba.conf said), read from stdin so it is on no command line; then pg_hba.conf requiring it for every connection.
 */
function requirePassword(data: string, password: string, user: { uid: number; gid: number } | undefined): void {
  const single = spawnSync(postgresBin("postgres"), ["--single", "-D", data, "postgres"], {
    input: `ALTER ROLE postgres PASSWORD '${password}';\n`,
    encoding: "utf8",
    ...(user ?? {}),
  });
  if (single.status !== 0) {
    const said = `${single.stdout}${single.stderr}`.replaceAll(password, "***").trim();
    throw new Error(`Could not set PostgreSQL's password in ${data}: ${single.error?.message ?? said}`);
  }
  const hba = path.join(data, "pg_hba.conf");
  writeFileSync(hba, PASSWORD_HBA, { mode: PRIVATE_FILE_MODE });
  chmodSync(hba, PRIVATE_FILE_MODE);
  if (user) chownSync(hba, user.uid, user.gid);
}

/**
 * PostgreSQL on loopback with its cluster in `dir` (made by initdb on first start, kept afterwards); the mirror's URL.
 * The superuser needs the password kept in `passwordFile` (any user of the machine can reach a loopback port).
 */
export async function startPostgres(dir: string, passwordFile: string): Promise<string> {
  const user = postgresUser();
  const data = path.join(dir, "data");
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid); // PostgreSQL refuses to run as root: its files are the postgres user's
  chmodSync(dir, 0o700);
  if (!existsSync(path.join(data, "PG_VERSION"))) {
    log(`Creating a PostgreSQL cluster in ${dir} (once)…`);
    const init = spawnChild("initdb", initdbArgs(data, { durable: true }), process.env, {
      command: postgresBin("initdb"),
      ...(user ? { as: user } : {}),
    });
    const exited = await init.exited;
    if (exited.code !== 0)
      throw new Error(
        user
          ? `initdb failed; see its output above. As root, PostgreSQL runs as the postgres user, who must be able to reach ${dir} (every folder above it needs o+x, or g+x with the group postgres): set CLUSTER_DATA_DIR to such a folder, or give DATABASE_URL.`
          : "initdb failed; see its output above.",
      );
  }
  const password = servicePassword(passwordFile, "PostgreSQL");
  requirePassword(data, password, user);
  const port = await freePort();
  spawnService("postgres", serverArgs(data, port, dir, { durable: true }), process.env, {
    command: postgresBin("postgres"),
    ...(user ? { as: user } : {}),
  });
  const server = `postgres://postgres:${password}@127.0.0.1:${String(port)}`;
  await waitFor("PostgreSQL", async () => {
    const client = new pg.Client({ connectionString: `${server}/postgres` });
    try {
      await client.connect();
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
      if (rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  });
  return `${server}/${DATABASE}`;
}

/**
 * The session secret every instance shares (each would make its own otherwise, and refuse the others' cookies): the
 * given SESSION_SECRET, or one generated once and kept in `file` (owner-only).
 */
export function sharedSessionSecret(file: string): string {
  const given = process.env.SESSION_SECRET?.trim();
  if (given) return given;
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    log(`SESSION_SECRET is not set: generated one for the cluster in ${file} (owner-only).`);
  } else {
    ensurePrivateFile(file, { warn: log });
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * haproxy's configuration: `bind` in front, round robin over the instances' ports, each checked on /api/livez
 * (an instance that fails it gets no requests until it passes again). Not /api/healthz: Redis, PostgreSQL and the
 * upstream are shared, so when one is down every instance fails that check at once, haproxy marks them all down and
 * users get its bare 503 page instead of the dashboard's own message saying what is wrong; X-Forwarded-For appended and X-Forwarded-Host
 * and -Proto overwritten (what TRUST_PROXY expects of the one proxy in front), and X-Served-By naming the instance
 * that answered (to see the spread).
 */
export function haproxyConfig(bind: { host: string; port: number }, instancePorts: number[]): string {
  return [
    "global",
    "  maxconn 2048",
    "defaults",
    "  mode http",
    "  option forwardfor",
    "  timeout connect 5s",
    // Exports stream for minutes, and progress polls hold a request open: long client and server timeouts.
    "  timeout client 10m",
    "  timeout server 10m",
    "frontend dashboard",
    `  bind ${bind.host}:${String(bind.port)}`,
    // The instances run with TRUST_PROXY=true: these are set here, overwriting whatever a client sent.
    "  http-request set-header X-Forwarded-Host %[req.hdr(host)]",
    "  http-request set-header X-Forwarded-Proto http",
    // Next answers TRACE and CONNECT with an unlogged 500 before any code of ours runs (README, security): refused here.
    '  http-request deny deny_status 405 hdr Allow "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" if METH_TRACE || METH_CONNECT',
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /api/livez",
    "  http-check expect status 200",
    "  http-response set-header X-Served-By %[srv_name]",
    ...instancePorts.map(
      (port, i) => `  server app${String(i + 1)} 127.0.0.1:${String(port)} check inter 5s fall 2 rise 1`,
    ),
    "",
  ].join("\n");
}

/** haproxy in the foreground with the configuration written to `file`; resolved once an instance answers through it. */
export async function startHaproxy(
  file: string,
  bind: { host: string; port: number },
  instancePorts: number[],
  probeUrl: string,
): Promise<void> {
  writeFileSync(file, haproxyConfig(bind, instancePorts));
  spawnService("haproxy", ["-db", "-f", file], process.env, { command: "haproxy" });
  await waitForHttp({ url: probeUrl, what: "haproxy", timeoutMs: READY_TIMEOUT_MS, isReady: (s) => s === 200 });
}
