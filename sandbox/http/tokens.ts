import { createHash, randomBytes } from "node:crypto";

interface Issued {
  token: string;
  keyId: string;
  expiresAtMs: number;
}

/**
 * Bearer tokens, in memory only (a restart logs every client out, as a provider's deploy might).
 * Lookup is by SHA-256 of the token; the clear token is kept only so `POST /auth` can return the same one
 * while it is valid, as the spec says ("cached server-side for the duration of expires_in").
 */
export class TokenStore {
  private readonly byHash = new Map<string, Issued>();
  private readonly byKey = new Map<string, Issued>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /** The key's current token if still valid, else a new one. */
  issue(keyId: string): { token: string; expiresInSeconds: number } {
    const nowMs = this.now();
    const current = this.byKey.get(keyId);
    if (current && current.expiresAtMs > nowMs) {
      return { token: current.token, expiresInSeconds: Math.ceil((current.expiresAtMs - nowMs) / 1000) };
    }
    if (current) this.byHash.delete(hash(current.token));
    const issued: Issued = {
      token: `fft_${randomBytes(32).toString("base64url")}`,
      keyId,
      expiresAtMs: nowMs + this.ttlSeconds * 1000,
    };
    this.byKey.set(keyId, issued);
    this.byHash.set(hash(issued.token), issued);
    this.sweep(nowMs);
    return { token: issued.token, expiresInSeconds: this.ttlSeconds };
  }

  /** The key id a valid token belongs to, or undefined for an unknown or expired token. */
  resolve(token: string): string | undefined {
    const issued = this.byHash.get(hash(token));
    if (!issued) return undefined;
    if (issued.expiresAtMs <= this.now()) return undefined;
    return issued.keyId;
  }

  private sweep(nowMs: number): void {
    if (this.byHash.size < 1024) return;
    for (const [h, issued] of this.byHash) {
      if (issued.expiresAtMs <= nowMs) {
        this.byHash.delete(h);
        if (this.byKey.get(issued.keyId) === issued) this.byKey.delete(issued.keyId);
      }
    }
  }
}

function hash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
