/** The sandbox CLI's commands other than serving: keys, customers and transactions of a database. */
import type Database from "better-sqlite3";

import { insertKey, listKeys, newKeyPair, parseAllowList, parseScopeList, revokeKey } from "../db/keys";
import { addTransactions, DEMO_KEYS, demoCredentials } from "../db/seed";
import { isoUtc } from "../db/timezones";
import { int, out, UsageError, type Values } from "./args";

type Command = (db: Database.Database, values: Values, arg: string | undefined) => void;

/** Runs `command sub [arg]` on an open database; an unknown command is a UsageError. */
export function runCommand(db: Database.Database, values: Values, positionals: readonly string[]): void {
  const [command, sub, arg] = positionals;
  const run = COMMANDS.get(`${command ?? ""} ${sub ?? ""}`);
  if (!run) throw new UsageError(`unknown command: ${positionals.join(" ")}`);
  run(db, values, arg);
}

/** A library error about the user's input (a bad scope, an unknown customer) is a usage error. */
function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const keysCreate: Command = (db, values) => {
  const code = values.customer;
  if (!code) throw new UsageError("keys create needs --customer CODE (see: customers list)");
  const customer = db.prepare("SELECT pk, code FROM customers WHERE code = ?").get(code) as
    { pk: number; code: string } | undefined;
  if (!customer) throw new UsageError(`no customer with code "${code}" (see: customers list)`);
  const scopes = asUsage(() => parseScopeList(values.scopes ?? "read"));
  const allowIps = asUsage(() => (values.allow !== undefined ? parseAllowList(values.allow) : null));
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
};

const keysRevoke: Command = (db, values, arg) => {
  if (!arg) throw new UsageError("keys revoke needs a KEY_ID");
  if (!revokeKey(db, arg, isoUtc(Math.floor(Date.now() / 1000)))) throw new UsageError(`no key with id "${arg}"`);
  out(values, { key_id: arg, revoked: true }, `Revoked ${arg}.`);
};

const keysList: Command = (db, values) => {
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
};

/**
 * The seed's demo keys, derived from the seed number (local sandbox only). Lets a demo or an e2e test use the
 * scope-limited, revoked and allow-listed keys too.
 */
const keysDemo: Command = (db, values) => {
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
};

const customersList: Command = (db, values) => {
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
};

const transactionsAdd: Command = (db, values) => {
  const customer = values.customer;
  if (!customer) throw new UsageError("transactions add needs --customer CODE");
  const count = int("count", values.count, 1, 100_000) ?? 1;
  const ids = asUsage(() => addTransactions(db, customer, count, Math.floor(Date.now() / 1000)));
  out(values, { added: ids.length, ids }, `Added ${String(ids.length)} transaction(s).`);
};

const COMMANDS: ReadonlyMap<string, Command> = new Map([
  ["keys create", keysCreate],
  ["keys revoke", keysRevoke],
  ["keys list", keysList],
  ["keys demo", keysDemo],
  ["customers list", customersList],
  ["transactions add", transactionsAdd],
]);
