import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

import type Database from "better-sqlite3";

/** Every key_id begins with this service key prefix. */
export const KEY_PREFIX = "ffk_";
const SECRET_PREFIX = "ffs_";
export const SCOPES = ["account", "transactions", "locations"] as const;
export type Scope = (typeof SCOPES)[number];

// scrypt cost: N=2^14, r=8, p=1 (OWASP's minimum for scrypt); about 30–50 ms per check on this machine.
const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 } as const;

function hashSecret(secret: string, salt: Buffer = randomBytes(16)): string {
  const hash = scryptSync(secret, salt, SCRYPT.keyLength, {
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: SCRYPT.maxmem,
  });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

/** Constant-time check of a secret against a stored `scrypt$N$r$p$salt$hash`; off the event loop. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, saltB64, hashB64] = stored.split("$");
  if (kind !== "scrypt" || !n || !r || !p || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, "base64");
  const actual = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      secret,
      Buffer.from(saltB64, "base64"),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem },
      (err, key) => {
        if (err) reject(err);
        else resolve(key);
      },
    );
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

interface KeyRow {
  key_id: string;
  customer_pk: number;
  label: string;
  secret_hash: string;
  scopes: string;
  allow_ips: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKey {
  keyId: string;
  customerPk: number;
  label: string;
  secretHash: string;
  scopes: Scope[];
  allowIps: string[] | null;
  createdAt: string;
  revokedAt: string | null;
}

function toApiKey(row: KeyRow): ApiKey {
  return {
    keyId: row.key_id,
    customerPk: row.customer_pk,
    label: row.label,
    secretHash: row.secret_hash,
    scopes: parseScopes(row.scopes),
    allowIps: row.allow_ips === null ? null : (JSON.parse(row.allow_ips) as string[]),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

function parseScopes(json: string): Scope[] {
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s as string));
}

/**
 * Scope names as an operator types them: `read` (the primary spec's one scope) means all three.
 * Throws with the offending name on anything else.
 */
export function parseScopeList(input: string): Scope[] {
  const out = new Set<Scope>();
  for (const raw of input
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw === "read") SCOPES.forEach((s) => out.add(s));
    else if ((SCOPES as readonly string[]).includes(raw)) out.add(raw as Scope);
    else throw new Error(`unknown scope "${raw}" (use read, account, transactions or locations)`);
  }
  if (out.size === 0) throw new Error("at least one scope is needed");
  return SCOPES.filter((s) => out.has(s));
}

/**
 * An allow-list as an operator types it: comma-separated plain IPv4 or IPv6 addresses (no CIDR ranges, no
 * IPv6 zone ids). IPv6 is stored in its canonical form and IPv4-mapped IPv6 as IPv4, as the sandbox compares
 * them with the socket's address. Throws naming the offending value.
 */
export function parseAllowList(input: string): string[] {
  const out = new Set<string>();
  for (const raw of input
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const address = normalizeAddress(raw);
    if (address === undefined) {
      const cidr = raw.includes("/") ? " CIDR ranges are not supported: list each address." : "";
      throw new Error(`--allow takes plain IPv4 or IPv6 addresses, comma-separated; "${raw}" is not one.${cidr}`);
    }
    out.add(address);
  }
  if (out.size === 0)
    throw new Error("--allow needs at least one IPv4 or IPv6 address (omit --allow to accept any address)");
  return [...out];
}

function normalizeAddress(raw: string): string | undefined {
  const version = isIP(raw);
  if (version === 4) return raw;
  if (version !== 6) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${raw}]/`).hostname.slice(1, -1); // "[::1]" → "::1"; throws on a zone id
  } catch {
    return undefined;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped?.[1] || !mapped[2]) return canonical;
  const high = parseInt(mapped[1], 16);
  const low = parseInt(mapped[2], 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** A fresh random key pair. */
export function newKeyPair(): { keyId: string; secret: string } {
  return {
    keyId: KEY_PREFIX + randomBytes(12).toString("hex"),
    secret: SECRET_PREFIX + randomBytes(24).toString("base64url"),
  };
}

/**
 * The demo key pairs are derived from the seed number so the sandbox can print them on start without ever
 * storing a secret in clear. Local demo only: anyone who knows the seed can derive them.
 */
export function deriveKeyPair(seed: number, label: string): { keyId: string; secret: string } {
  const digest = (what: string) =>
    createHash("sha256")
      .update(`fleet-fuel-sandbox:${String(seed)}:${label}:${what}`)
      .digest();
  return {
    keyId: KEY_PREFIX + digest("id").subarray(0, 12).toString("hex"),
    secret: SECRET_PREFIX + digest("secret").subarray(0, 24).toString("base64url"),
  };
}

export interface CreateKeyInput {
  keyId: string;
  secret: string;
  customerPk: number;
  label?: string;
  scopes: readonly Scope[];
  allowIps?: readonly string[] | null;
  createdAt: string;
  revokedAt?: string | null;
}

export function insertKey(db: Database.Database, input: CreateKeyInput): void {
  db.prepare(
    `INSERT INTO api_keys (key_id, customer_pk, label, secret_hash, scopes, allow_ips, created_at, revoked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    input.keyId,
    input.customerPk,
    input.label ?? "",
    hashSecret(input.secret),
    JSON.stringify(input.scopes),
    input.allowIps ? JSON.stringify(input.allowIps) : null,
    input.createdAt,
    input.revokedAt ?? null,
  );
}

export function findKey(db: Database.Database, keyId: string): ApiKey | undefined {
  const row = db.prepare("SELECT * FROM api_keys WHERE key_id = ?").get(keyId) as KeyRow | undefined;
  return row ? toApiKey(row) : undefined;
}

export function listKeys(db: Database.Database): (Omit<ApiKey, "secretHash"> & { customerCode: string })[] {
  const rows = db
    .prepare(
      "SELECT k.*, c.code AS customer_code FROM api_keys k JOIN customers c ON c.pk = k.customer_pk ORDER BY c.code, k.created_at, k.key_id",
    )
    .all() as (KeyRow & { customer_code: string })[];
  return rows.map((row) => {
    const { secretHash: _omit, ...rest } = toApiKey(row);
    return { ...rest, customerCode: row.customer_code };
  });
}

/** Marks a key revoked; returns false when no such key exists. Revoking twice keeps the first time. */
export function revokeKey(db: Database.Database, keyId: string, at: string): boolean {
  const exists = db.prepare("SELECT 1 FROM api_keys WHERE key_id = ?").get(keyId);
  if (!exists) return false;
  db.prepare("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?").run(at, keyId);
  return true;
}
