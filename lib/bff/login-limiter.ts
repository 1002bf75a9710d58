import "server-only";
import { createHash } from "node:crypto";
import { now } from "./clock";

/**
 * Failed sign-ins, counted before the upstream is asked again. Every user of this BFF reaches the provider from
 * the same address, so unthrottled guessing here would spend the provider's failed-login allowance for all of
 * them (the sandbox allows 20 per address per window) and lock everybody out. Three sliding windows: all failures
 * together, per key id, and per client address (known only behind a trusted proxy).
 */
const LIMITS = {
  global: { max: 12, windowMs: 60_000 },
  key: { max: 8, windowMs: 15 * 60_000 },
  address: { max: 8, windowMs: 15 * 60_000 },
} as const;
type Bucket = keyof typeof LIMITS;

const MAX_TRACKED = 10_000;
const holder = globalThis as typeof globalThis & { __ffdLoginFailures?: Map<string, number[]> };
const failures = () => (holder.__ffdLoginFailures ??= new Map<string, number[]>());

function keysFor(keyId: string, address: string | null): [Bucket, string][] {
  const hashedKey = createHash("sha256").update(keyId).digest("base64url");
  return [["global", "global"], ["key", `key:${hashedKey}`], ...(address ? [["address", `addr:${address}`] as [Bucket, string]] : [])];
}

function recent(key: string, windowMs: number, t: number): number[] {
  const list = (failures().get(key) ?? []).filter((at) => at > t - windowMs);
  if (list.length === 0) failures().delete(key);
  else failures().set(key, list);
  return list;
}

/** Milliseconds to wait before this sign-in may be tried, or 0. */
export function loginWaitMs(keyId: string, address: string | null): number {
  const t = now();
  let wait = 0;
  for (const [bucket, key] of keysFor(keyId, address)) {
    const { max, windowMs } = LIMITS[bucket];
    const list = recent(key, windowMs, t);
    const oldest = list[list.length - max];
    if (list.length >= max && oldest !== undefined) wait = Math.max(wait, oldest + windowMs - t);
  }
  return wait;
}

export function recordLoginFailure(keyId: string, address: string | null): void {
  const t = now();
  if (failures().size > MAX_TRACKED) failures().clear(); // a flood of distinct keys must not grow memory without end
  for (const [bucket, key] of keysFor(keyId, address)) {
    const list = recent(key, LIMITS[bucket].windowMs, t);
    list.push(t);
    failures().set(key, list);
  }
}

/** The client's address as a trusted proxy reports it (first X-Forwarded-For hop); null when we cannot know it. */
export function clientAddress(headers: Headers, trustProxy: boolean): string | null {
  if (!trustProxy) return null;
  const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "";
  return first === "" ? null : first;
}
