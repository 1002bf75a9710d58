import { parseArgs } from "node:util";
import { createConfig, PROFILES, type FaultSettings, type Profile } from "./config";
import {
  insertKey,
  listKeys,
  newKeyPair,
  parseAllowList,
  parseScopeList,
  revokeKey,
  SCOPES,
  findKey,
  verifySecret,
} from "./db/keys";
import { DEFAULT_DB_PATH, openDatabase } from "./db/open";
import { addTransactions, DEMO_KEYS, demoCredentials } from "./db/seed";
import { MAX_STATIONS } from "./db/station-catalog";
import { isoUtc } from "./db/timezones";
import { startSandboxServer } from "./server";

const USAGE = `Fleet Fuel API v1 sandbox

Serve (default):
  npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--db PATH] [--profile primary|alternative] [--reset]
                     [--seed N] [--transactions N] [--stations N (≤ 99,999)] [--budget N] [--window-seconds N] [--failed-auth-budget N]
                     [--token-ttl-seconds N] [--quiet] [--control] [--live N]
                     [--faults] [--fault-latency MS] [--fault-error-rate F] [--fault-drop-rate F] [--fault-malformed-rate F]
                     --control also serves GET/PUT/DELETE /sandbox/faults to change faults while running, and
                     POST /sandbox/transactions, PATCH|DELETE /sandbox/transactions/ID to change data (tests only)
                     --live N adds a transaction for the demo customer (PFL) every N seconds
Keys and data:
  npm run sandbox -- keys create --customer CODE [--scopes read|account,transactions,locations] [--allow IP,...] [--label TEXT] [--json]
  npm run sandbox -- keys revoke KEY_ID [--json]
  npm run sandbox -- keys list [--json]
  npm run sandbox -- keys demo [--json]        the seeded demo key pairs (local sandbox only)
  npm run sandbox -- customers list [--json]
  npm run sandbox -- transactions add --customer CODE [--count N] [--json]
--allow takes plain IPv4/IPv6 addresses (no CIDR ranges); the list is enforced under the alternative profile.
Every command takes --db PATH (default ${DEFAULT_DB_PATH}, env SANDBOX_DB).
Env: SANDBOX_PORT, SANDBOX_PROFILE, SANDBOX_DB. Flags win over env.`;

class UsageError extends Error {}

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  db: { type: "string" },
  profile: { type: "string" },
  reset: { type: "boolean" },
  seed: { type: "string" },
  transactions: { type: "string" },
  stations: { type: "string" },
  budget: { type: "string" },
  "window-seconds": { type: "string" },
  "failed-auth-budget": { type: "string" },
  "token-ttl-seconds": { type: "string" },
  quiet: { type: "boolean" },
  control: { type: "boolean" },
  live: { type: "string" },
  faults: { type: "boolean" },
  "fault-latency": { type: "string" },
  "fault-error-rate": { type: "string" },
  "fault-drop-rate": { type: "string" },
  "fault-malformed-rate": { type: "string" },
  customer: { type: "string" },
  scopes: { type: "string" },
  allow: { type: "string" },
  label: { type: "string" },
  count: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function int(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from ${String(min)} to ${String(max)} (got "${raw}")`);
  return Number(raw);
}

function fraction(name: string, raw: string | undefined): number {
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value > 1)
    throw new UsageError(`--${name} must be a fraction from 0 to 1 (got "${raw}")`);
  return value;
}

function profileOf(raw: string | undefined): Profile {
  const value = raw ?? "primary";
  if (!(PROFILES as readonly string[]).includes(value))
    throw new UsageError(`--profile must be primary or alternative (got "${value}")`);
  return value as Profile;
}

function out(values: Values, json: unknown, text: string): void {
  console.log(values.json ? JSON.stringify(json) : text);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dbPath = values.db ?? process.env.SANDBOX_DB ?? DEFAULT_DB_PATH;
  const [command, sub, arg] = positionals;

  if (command === undefined || command === "serve") return serve(values, dbPath);

  const { db } = openDatabase({ path: dbPath });
  try {
    if (command === "keys" && sub === "create") {
      const code = values.customer;
      if (!code) throw new UsageError("keys create needs --customer CODE (see: customers list)");
      const customer = db.prepare("SELECT pk, code FROM customers WHERE code = ?").get(code) as
        { pk: number; code: string } | undefined;
      if (!customer) throw new UsageError(`no customer with code "${code}" (see: customers list)`);
      let scopes;
      try {
        scopes = parseScopeList(values.scopes ?? "read");
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      let allowIps: string[] | null = null;
      try {
        if (values.allow !== undefined) allowIps = parseAllowList(values.allow);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const pair = newKeyPair();
      insertKey(db, {
        ...pair,
        customerPk: customer.pk,
        label: values.label ?? "",
        scopes,
        allowIps,
        createdAt: isoUtc(Math.floor(Date.now() / 1000)),
      });
      out(
        values,
        { key_id: pair.keyId, secret: pair.secret, customer: customer.code, scopes },
        `key_id  ${pair.keyId}\nsecret  ${pair.secret}\nThe secret is shown only this once; store it now.`,
      );
      return 0;
    }
    if (command === "keys" && sub === "revoke") {
      if (!arg) throw new UsageError("keys revoke needs a KEY_ID");
      if (!revokeKey(db, arg, isoUtc(Math.floor(Date.now() / 1000)))) throw new UsageError(`no key with id "${arg}"`);
      out(values, { key_id: arg, revoked: true }, `Revoked ${arg}.`);
      return 0;
    }
    if (command === "keys" && sub === "list") {
      const keys = listKeys(db).map((k) => ({
        key_id: k.keyId,
        customer: k.customerCode,
        label: k.label,
        scopes: k.scopes,
        allow_ips: k.allowIps,
        created_at: k.createdAt,
        revoked_at: k.revokedAt,
      }));
      out(
        values,
        keys,
        keys
          .map(
            (k) =>
              `${k.key_id}  ${k.customer}  ${k.revoked_at ? "revoked" : "active "}  ${k.scopes.join(",")}${k.allow_ips ? `  allow ${k.allow_ips.join(",")}` : ""}  ${k.label}`,
          )
          .join("\n"),
      );
      return 0;
    }
    if (command === "keys" && sub === "demo") {
      // The seed's demo keys, derived from the seed number (local sandbox only). Lets a demo or an e2e test use
      // the scope-limited, revoked and allow-listed keys too.
      const seedValue = Number(
        (db.prepare("SELECT value FROM meta WHERE key = 'seed'").get() as { value: string } | undefined)?.value ?? NaN,
      );
      const pairs = DEMO_KEYS.map((k) => ({
        label: k.label,
        customer: k.customer.code,
        ...demoCredentials(seedValue, k.label),
      }));
      out(
        values,
        pairs.map((p) => ({ label: p.label, customer: p.customer, key_id: p.keyId, secret: p.secret })),
        pairs.map((p) => `${p.label.padEnd(22)} ${p.customer}  ${p.keyId}  ${p.secret}`).join("\n"),
      );
      return 0;
    }
    if (command === "customers" && sub === "list") {
      const rows = db
        .prepare(
          "SELECT c.id, c.code, c.name, c.active, (SELECT COUNT(*) FROM transactions t WHERE t.customer_pk = c.pk) AS transactions FROM customers c ORDER BY c.code",
        )
        .all() as {
        id: string;
        code: string;
        name: string;
        active: number;
        transactions: number;
      }[];
      const list = rows.map((r) => ({ ...r, active: r.active === 1 }));
      out(
        values,
        list,
        list
          .map((c) => `${c.code}  ${c.name}  ${String(c.transactions)} transactions${c.active ? "" : "  (inactive)"}`)
          .join("\n"),
      );
      return 0;
    }
    if (command === "transactions" && sub === "add") {
      if (!values.customer) throw new UsageError("transactions add needs --customer CODE");
      const count = int("count", values.count, 1, 100_000) ?? 1;
      let ids: string[];
      try {
        ids = addTransactions(db, values.customer, count, Math.floor(Date.now() / 1000));
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      out(values, { added: ids.length, ids }, `Added ${String(ids.length)} transaction(s).`);
      return 0;
    }
    throw new UsageError(`unknown command: ${positionals.join(" ")}`);
  } finally {
    db.close();
  }
}

async function serve(values: Values, dbPath: string): Promise<number> {
  const profile = profileOf(values.profile ?? process.env.SANDBOX_PROFILE);
  const port = int("port", values.port ?? process.env.SANDBOX_PORT, 0, 65_535) ?? 4010;
  const seed = int("seed", values.seed, 0, 2 ** 32 - 1);
  const transactions = int("transactions", values.transactions, 0, 5_000_000);
  const stations = int("stations", values.stations, 10, MAX_STATIONS);
  const seedOptions = {
    ...(seed !== undefined ? { seed } : {}),
    ...(transactions !== undefined ? { transactions } : {}),
    ...(stations !== undefined ? { stations } : {}),
  };
  const faults: FaultSettings = {
    latencyMs: int("fault-latency", values["fault-latency"], 0, 600_000) ?? 0,
    errorRate: fraction("fault-error-rate", values["fault-error-rate"]),
    dropRate: fraction("fault-drop-rate", values["fault-drop-rate"]),
    malformedRate: fraction("fault-malformed-rate", values["fault-malformed-rate"]),
    headers: values.faults ?? false,
    rateLimitSeconds: 0,
  };
  const budget = int("budget", values.budget, 1, 1_000_000_000);
  const windowSeconds = int("window-seconds", values["window-seconds"], 1, 86_400);
  const failedAuthBudget = int("failed-auth-budget", values["failed-auth-budget"], 1, 1_000_000_000);
  const tokenTtlSeconds = int("token-ttl-seconds", values["token-ttl-seconds"], 1, 86_400);
  const config = createConfig({
    profile,
    faults,
    control: values.control ?? false,
    ...(budget ? { budget } : {}),
    ...(windowSeconds ? { windowSeconds } : {}),
    ...(failedAuthBudget ? { failedAuthBudget } : {}),
    ...(tokenTtlSeconds ? { tokenTtlSeconds } : {}),
  });

  const started = Date.now();
  console.log(`[sandbox] opening ${dbPath}${values.reset ? " (reset)" : ""}…`);
  const opened = openDatabase({ path: dbPath, reset: values.reset ?? false, seed: seedOptions });
  if (opened.seeded)
    console.log(`[sandbox] created and seeded the database in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  else if (Object.keys(seedOptions).length > 0)
    console.warn(
      "[sandbox] the database already exists, so --seed/--transactions/--stations were ignored; add --reset to re-seed",
    );

  const log = values.quiet
    ? undefined
    : (line: string) => {
        console.log(`[sandbox] ${line}`);
      };
  const server = await startSandboxServer({
    db: opened.db,
    config,
    port,
    host: values.host ?? "127.0.0.1",
    ...(log ? { log } : {}),
  });
  console.log(`[sandbox] Fleet Fuel API v1 (${profile} profile) at ${server.baseUrl}`);
  console.log(
    `[sandbox] OpenAPI document: ${server.baseUrl}/docs/openapi · budget ${String(config.budget)} requests per key per ${String(config.windowSeconds)} s, ${String(config.failedAuthBudget)} failed key-pair checks per address`,
  );
  await printDemoKey(opened.db, opened.seed);
  const liveSeconds = int("live", values.live, 1, 86_400);
  const live =
    liveSeconds === undefined
      ? undefined
      : setInterval(() => {
          addTransactions(opened.db, "PFL", 1, Math.floor(Date.now() / 1000));
        }, liveSeconds * 1000);
  if (liveSeconds !== undefined) console.log(`[sandbox] live: a new PFL transaction every ${String(liveSeconds)} s`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return; // a second Ctrl-C while closing must not cut the database close short
    stopping = true;
    if (live) clearInterval(live);
    console.log(`[sandbox] ${signal}: stopping`);
    void server.close().finally(() => {
      opened.db.close();
      process.exit(0);
    });
  };
  process.on("SIGINT", () => {
    stop("SIGINT");
  });
  process.on("SIGTERM", () => {
    stop("SIGTERM");
  });
  return new Promise<number>(() => undefined); // runs until a signal
}

/** Prints the demo key pair (local demo only), after checking it still matches the database. */
async function printDemoKey(db: ReturnType<typeof openDatabase>["db"], seed: number): Promise<void> {
  const label = DEMO_KEYS[0].label;
  const pair = demoCredentials(seed, label);
  const key = findKey(db, pair.keyId);
  if (key?.revokedAt !== null || !(await verifySecret(pair.secret, key.secretHash))) {
    console.log(
      "[sandbox] the demo key is gone or revoked; create one with: npm run sandbox -- keys create --customer PFL",
    );
    return;
  }
  console.log("[sandbox] demo key pair (local sandbox only, derived from the seed; never use in production):");
  console.log(`[sandbox]   key_id  ${pair.keyId}`);
  console.log(`[sandbox]   secret  ${pair.secret}`);
  console.log(`[sandbox]   scopes  ${SCOPES.join(", ")} · customer PFL (Prairie Freight Lines)`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      console.error(`sandbox: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error("sandbox: failed:", error);
    process.exitCode = 1;
  },
);
