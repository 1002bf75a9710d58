import type Database from "better-sqlite3";
import type { Context, MiddlewareHandler } from "hono";
import type { SandboxConfig } from "../config";
import { findKey, KEY_PREFIX, verifySecret, type ApiKey, type Scope } from "../db/keys";
import type { SandboxEnv } from "./env";
import { ApiError } from "./errors";
import type { FixedWindowLimiter } from "./rate-limit";
import type { TokenStore } from "./tokens";

export interface AuthDeps {
  db: Database.Database;
  config: SandboxConfig;
  tokens: TokenStore;
  limiter: FixedWindowLimiter;
}

/** The code for a failed key-pair check: `unauthenticated` (primary) or `invalid_credentials` (alternative). */
export function credentialError(config: SandboxConfig): ApiError {
  return config.profile === "primary"
    ? new ApiError(401, "unauthenticated", "Unknown key id or wrong secret, or the key was revoked.")
    : new ApiError(401, "invalid_credentials", "Unknown key id or wrong secret, or the key was revoked.");
}

/** Checks a key pair: the key exists, is not revoked and the secret matches its scrypt hash. */
export async function verifyKeyPair(deps: AuthDeps, keyId: string, secret: string): Promise<ApiKey> {
  const key = keyId.startsWith(KEY_PREFIX) ? findKey(deps.db, keyId) : undefined;
  // Verify against a dummy hash for unknown keys too, so timing does not reveal which key ids exist.
  const ok = await verifySecret(secret, key?.secretHash ?? DUMMY_HASH);
  if (!key || !ok || key.revokedAt !== null) throw credentialError(deps.config);
  return key;
}
// scrypt of a random string nobody knows; only its cost matters.
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/** The caller's address as the socket reports it; IPv4-mapped IPv6 is unwrapped. */
export function clientAddress(c: Context<SandboxEnv>): string | undefined {
  const raw = c.env.incoming?.socket.remoteAddress;
  return raw?.startsWith("::ffff:") ? raw.slice(7) : raw;
}

/**
 * Authenticates a GET: Bearer token or HTTP Basic (re-verified against the hash on every call), then the
 * allow-list (alternative profile), the request budget and the endpoint's scope.
 */
export function requireAuth(deps: AuthDeps, scope: Scope): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const key = await authenticate(deps, c);
    if (deps.config.profile === "alternative") checkAllowList(key, clientAddress(c));
    deps.limiter.take(key.keyId);
    if (!key.scopes.includes(scope)) {
      const name = deps.config.profile === "primary" ? "read" : scope;
      throw new ApiError(403, "scope_denied", `This API key lacks the ${name} scope needed for ${c.req.method} ${routeName(scope)}.`);
    }
    c.set("key", key);
    c.set("customerPk", key.customerPk);
    await next();
  };
}

function routeName(scope: Scope): string {
  return scope === "account" ? "/account-details" : `/${scope}`;
}

async function authenticate(deps: AuthDeps, c: Context<SandboxEnv>): Promise<ApiKey> {
  const header = c.req.header("authorization");
  if (!header) throw new ApiError(401, "unauthenticated", "Missing credentials: send Authorization: Bearer <token> (from POST /auth) or Basic.");
  const [scheme, value] = splitOnce(header.trim(), " ");
  switch (scheme.toLowerCase()) {
    case "bearer": {
      const keyId = deps.tokens.resolve(value.trim());
      const key = keyId ? findKey(deps.db, keyId) : undefined;
      if (key?.revokedAt !== null) throw new ApiError(401, "unauthenticated", "The bearer token is unknown or expired; get a new one from POST /auth.");
      return key;
    }
    case "basic": {
      const decoded = Buffer.from(value.trim(), "base64").toString("utf8");
      const [keyId, secret] = splitOnce(decoded, ":");
      if (!keyId || !secret) throw new ApiError(401, "unauthenticated", "Malformed Basic credentials: expected base64 of key_id:secret.");
      return verifyKeyPair(deps, keyId, secret);
    }
    default:
      throw new ApiError(401, "unauthenticated", "Unsupported Authorization scheme: use Bearer or Basic.");
  }
}

function checkAllowList(key: ApiKey, address: string | undefined): void {
  if (key.allowIps === null) return;
  if (address !== undefined && key.allowIps.includes(address)) return;
  throw new ApiError(401, "unauthenticated", "This key does not accept requests from your address (allow-list).");
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + separator.length)];
}
