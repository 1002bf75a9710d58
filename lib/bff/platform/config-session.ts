import "server-only";

import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from "@/lib/private-files";

/** The session's configuration that is more than a value: the cookie passwords and where signed-out sessions live. */

const SECRET_FILE = ".data/session-secret";
const MIN_SECRET_LENGTH = 32;

/**
 * SESSION_SECRET: one password, or several as `id:password`, comma-separated (e.g. `3:newest,2:previous`). The highest
 * id seals new cookies; every listed one unseals. Ids must stay with their password across rotations, or existing
 * sessions could not be unsealed; a list without ids is numbered from the end (newest first) — fine for one password.
 */
function parsePasswords(raw: string, problems: string[]): Record<string, string> {
  const entries = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const withIds = entries.every((s) => /^\d{1,6}:/.test(s));
  const out: Record<string, string> = {};
  entries.forEach((entry, i) => {
    const [id, password] = withIds
      ? [entry.slice(0, entry.indexOf(":")), entry.slice(entry.indexOf(":") + 1)]
      : [String(entries.length - i), entry];
    if (password.length < MIN_SECRET_LENGTH)
      problems.push(
        `SESSION_SECRET: password ${id} is ${String(password.length)} characters; each needs at least ${String(MIN_SECRET_LENGTH)}`,
      );
    if (Object.hasOwn(out, id)) problems.push(`SESSION_SECRET: the id ${id} is used twice`);
    out[id] = password;
  });
  return out;
}

/** SESSION_DB must be a file (or not exist yet) whose folder exists or can be created. */
export function sessionDbProblems(path: string): string[] {
  if (existsSync(path) && statSync(path).isDirectory())
    return [`SESSION_DB: ${path} is a folder; give a file path, e.g. .data/sessions.db`];
  // The nearest existing ancestor must be a folder, or the file could never be created.
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir))
      return statSync(dir).isDirectory() ? [] : [`SESSION_DB: ${dir} is a file, so ${path} cannot be created under it`];
    if (dirname(dir) === dir) return [];
  }
}

/** For local use without SESSION_SECRET: a generated secret kept under .data/ with owner-only permissions. */
function localSecret(cwd: string, warn: (message: string) => void): string {
  const path = join(cwd, SECRET_FILE);
  ensurePrivateDir(dirname(path), { warn });
  if (existsSync(path)) {
    const existing = readFileSync(path, "utf8").trim();
    if (existing.length >= MIN_SECRET_LENGTH) {
      ensurePrivateFile(path, { warn }); // owner-only, whoever created it (narrowed with a warning)
      return existing;
    }
  }
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE);
  warn(
    `[dashboard] SESSION_SECRET is not set: generated one for local use in ${SECRET_FILE} (owner-only). Set SESSION_SECRET in production.`,
  );
  return secret;
}

/**
 * The cookie passwords: SESSION_SECRET's; without it, a generated one kept on disk when the upstream is the sandbox
 * (SANDBOX=1 on loopback, config.ts); otherwise a problem (any other upstream, a loopback proxy included, needs a real
 * secret). `host` is "" when the URL could not be read (the schema
 * names that problem).
 */
export function sessionPasswords(
  env: Readonly<Record<string, string | undefined>>,
  upstream: { host: string; isSandbox: boolean },
  local: { cwd: string; warn: (message: string) => void },
  problems: string[],
): { passwords: Record<string, string>; generatedSecret: boolean } {
  const rawSecret = env.SESSION_SECRET?.trim() ?? "";
  if (rawSecret !== "") return { passwords: parsePasswords(rawSecret, problems), generatedSecret: false };
  if (upstream.isSandbox) return { passwords: { "1": localSecret(local.cwd, local.warn) }, generatedSecret: true };
  if (upstream.host !== "")
    problems.push(
      "SESSION_SECRET is required unless the upstream is this project's sandbox (SANDBOX=1, as npm start sets it): at least 32 characters; give ids to rotate: 2:new,1:old",
    );
  return { passwords: {}, generatedSecret: false };
}
