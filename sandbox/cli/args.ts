/** The sandbox CLI's usage text, options and argument parsers. A UsageError is printed with the usage, exit code 2. */
import type { parseArgs } from "node:util";

import { type Profile, PROFILES } from "../config";
import { DEFAULT_DB_PATH } from "../db/open";

export const USAGE = `Fleet Fuel API v1 sandbox

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

export class UsageError extends Error {}

export const OPTIONS = {
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

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

export function int(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from ${String(min)} to ${String(max)} (got "${raw}")`);
  return Number(raw);
}

export function fraction(name: string, raw: string | undefined): number {
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value > 1)
    throw new UsageError(`--${name} must be a fraction from 0 to 1 (got "${raw}")`);
  return value;
}

export function profileOf(raw: string | undefined): Profile {
  const value = raw ?? "primary";
  if (!(PROFILES as readonly string[]).includes(value))
    throw new UsageError(`--profile must be primary or alternative (got "${value}")`);
  return value as Profile;
}

export function out(values: Values, json: unknown, text: string): void {
  console.log(values.json ? JSON.stringify(json) : text);
}
