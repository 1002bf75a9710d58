import type Database from "better-sqlite3";
import type { Context, MiddlewareHandler } from "hono";

import type { SandboxConfig } from "../config";
import { type ApiKey, findKey, KEY_PREFIX, type Scope, verifySecret } from "../db/keys";
import type { SandboxEnv } from "./env";
import { ApiError } from "./errors";
import type { FailedAuthLimiter, FixedWindowLimiter } from "./rate-limit";
import type { TokenStore } from "./tokens";

export interface AuthDeps {
  db: Database.Database;
  config: SandboxConfig;
  tokens: TokenStore;
  limiter: FixedWindowLimiter;
  failedAuth: FailedAuthLimiter;
}

/** The code for a failed key-pair check: `unauthenticated` (primary) or `invalid_credentials` (alternative). */
function credentialError(config: SandboxConfig): ApiError {
  return config.profile === "primary"
    ? new ApiError(401, "unauthenticated", "Unknown key id or wrong secret, or the key was revoked.")
    : new ApiError(401, "invalid_credentials", "Unknown key id or wrong secret, or the key was revoked.");
}

/**
 * Checks a key pair: the key exists, is not revoked and the secret matches its scrypt hash. An address that
 * failed too often in this window gets 429 before any scrypt work; a failure counts against the address, never
 * against the key's request budget.
 *
 * Under the allow-list rule (alternative profile) an address the key does not list is refused before the secret is
 * looked at, with the same answer whether the secret is right or wrong: otherwise anyone could test guesses of a
 * secret from anywhere and learn which one is right from the message. It counts as a failed check.
 */
export async function verifyKeyPair(
  deps: AuthDeps,
  keyId: string,
  secret: string,
  address: string | undefined,
): Promise<ApiKey> {
  const settle = deps.failedAuth.begin(address ?? "unknown");
  let verified: ApiKey | undefined;
  try {
    const key = keyId.startsWith(KEY_PREFIX) ? findKey(deps.db, keyId) : undefined;
    if (key && deps.config.profile === "alternative" && !isAllowed(key, address))
      throw allowListError("invalid_credentials");
    // Verify against a dummy hash for unknown keys too, so timing does not reveal which key ids exist.
    const ok = await verifySecret(secret, key?.secretHash ?? DUMMY_HASH);
    if (key && ok && key.revokedAt === null) verified = key;
  } finally {
    settle(verified !== undefined);
  }
  if (!verified) throw credentialError(deps.config);
  return verified;
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
    if (deps.config.profile === "alternative" && !isAllowed(key, clientAddress(c)))
      throw allowListError("unauthenticated");
    deps.limiter.take(key.keyId);
    if (!key.scopes.includes(scope)) throw scopeDenied(deps.config, scope, `${c.req.method} ${routeName(scope)}`);
    c.set("key", key);
    c.set("customerPk", key.customerPk);
    await next();
  };
}

/**
 * 403 `scope_denied`. The primary description has one scope, `read`, yet keys here still lack single resources:
 * its message keeps the word "read" (clients read the scope name from it) and says which resource is not covered.
 */
function scopeDenied(config: SandboxConfig, scope: Scope, endpoint: string): ApiError {
  const message =
    config.profile === "primary"
      ? `This API key's read scope does not cover ${RESOURCE_NAMES[scope]} (${endpoint}).`
      : `This API key lacks the ${scope} scope needed for ${endpoint}.`;
  return new ApiError(403, "scope_denied", message);
}
const RESOURCE_NAMES: Readonly<Record<Scope, string>> = {
  account: "the account details",
  transactions: "transactions",
  locations: "locations",
};

function routeName(scope: Scope): string {
  return scope === "account" ? "/account-details" : `/${scope}`;
}

async function authenticate(deps: AuthDeps, c: Context<SandboxEnv>): Promise<ApiKey> {
  const header = c.req.header("authorization");
  if (!header)
    throw new ApiError(
      401,
      "unauthenticated",
      "Missing credentials: send Authorization: Bearer <token> (from POST /auth) or Basic.",
    );
  const [scheme, value] = splitOnce(header.trim(), " ");
  switch (scheme.toLowerCase()) {
    case "bearer": {
      const keyId = deps.tokens.resolve(value.trim());
      const key = keyId ? findKey(deps.db, keyId) : undefined;
      if (key?.revokedAt !== null)
        throw new ApiError(
          401,
          "unauthenticated",
          "The bearer token is unknown or expired; get a new one from POST /auth.",
        );
      return key;
    }
    case "basic": {
      const decoded = Buffer.from(value.trim(), "base64").toString("utf8");
      const [keyId, secret] = splitOnce(decoded, ":");
      if (!keyId || !secret)
        throw new ApiError(401, "unauthenticated", "Malformed Basic credentials: expected base64 of key_id:secret.");
      // A key whose budget is spent gets its 429 before the scrypt check (which costs ~50 ms of CPU): a client over
      // budget must not make the server hash its secret on every refused call. Only looked at here, not counted: a
      // wrong secret must never spend the key's budget.
      deps.limiter.check(keyId);
      return verifyKeyPair(deps, keyId, secret, clientAddress(c));
    }
    default:
      throw new ApiError(401, "unauthenticated", "Unsupported Authorization scheme: use Bearer or Basic.");
  }
}

function isAllowed(key: ApiKey, address: string | undefined): boolean {
  return key.allowIps === null || (address !== undefined && key.allowIps.includes(address));
}

function allowListError(code: "unauthenticated" | "invalid_credentials"): ApiError {
  return new ApiError(401, code, "This key does not accept requests from your address (allow-list).");
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + separator.length)];
}
