import "server-only";

import { createHash } from "node:crypto";

/** A customer's key pair, as the session holds it. Never logged, never a map key. */
export interface Credentials {
  keyId: string;
  secret: string;
}

/**
 * The key pair's identity for caches and the request budget: a SHA-256 of both parts, so neither the secret nor a
 * reversible form of it is ever a map key, a Redis key or a log field.
 */
export function credentialKey(credentials: Credentials): string {
  return createHash("sha256").update(`fleet-fuel:${credentials.keyId}\u0000${credentials.secret}`).digest("base64url");
}

/** A short, non-reversible fingerprint of the public key id for logs: `ffk_…3f9a`. */
export function keyFingerprint(keyId: string): string {
  return `${keyId.slice(0, 4)}…${createHash("sha256").update(keyId).digest("hex").slice(0, 6)}`;
}
