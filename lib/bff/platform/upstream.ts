import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";
import { hkdfSync } from "node:crypto";

import {
  FailedCheckLimiter,
  FleetApiClient,
  RedisBudgetStore,
  RedisFailedCheckLimiter,
  RedisPairVerdictStore,
  RedisTokenStore,
  RequestBudget,
  SqlitePairVerdictStore,
  type UpstreamCall,
} from "@/lib/fleet-api";

import { getConfig } from "./config";
import { sharedRedis } from "./redis";

/** Upstream calls made while serving one BFF request (for its log line and the economy figures). */
export interface RequestContext {
  upstreamCalls: UpstreamCall[];
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const holder = globalThis as typeof globalThis & {
  __ffdClient?: FleetApiClient;
  __ffdVerdictFile?: SqlitePairVerdictStore;
};

/**
 * A key every instance derives alike from the newest session password (which they share), one per use (`salt`,
 * `info`): the key naming key pairs in Redis (an HMAC key, budget-store-redis.ts), the pepper of the pair verdicts
 * (credential-checks.ts). The password itself never reaches Redis, and a copy of Redis names no key pair.
 */
function sharedKey(passwords: Record<string, string>, salt: string, info: string): Uint8Array {
  const newest = Object.keys(passwords).sort((a, b) => Number(b) - Number(a))[0] ?? "";
  return new Uint8Array(hkdfSync("sha256", passwords[newest] ?? "", salt, info, 32));
}

const redisNamingKey = (passwords: Record<string, string>) => sharedKey(passwords, "ffd-redis-names", "key pair names");
/** Per upstream too: what one provider said about a pair says nothing about another (a sandbox, a new base URL). */
const verdictPepper = (passwords: Record<string, string>, baseUrl: string) =>
  sharedKey(passwords, "ffd-pair-verdicts", `pair verdict pepper\u0000${baseUrl}`);

/**
 * One client per process: one token cache, one request budget per key, shared by every request and tab. With
 * REDIS_URL, the budget, the token, the failed-check allowance and the pair verdicts are shared by every instance too
 * (the process's one Redis connection). Without it the pair verdicts are kept in SESSION_DB's file, so a pair known
 * good is still recognised after a restart (30 days).
 */
export function fleetApi(): FleetApiClient {
  if (!holder.__ffdClient) {
    const { upstream, session } = getConfig();
    const redis = sharedRedis();
    const namingKey = redis ? redisNamingKey(session.passwords) : undefined;
    holder.__ffdClient = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      allowInsecureHttp: upstream.allowInsecureHttp,
      timeoutMs: upstream.timeoutMs,
      interactiveMaxWaitMs: upstream.interactiveMaxWaitMs,
      budget: new RequestBudget({
        budget: upstream.budget,
        windowMs: upstream.windowMs,
        ...(redis && namingKey ? { store: new RedisBudgetStore(redis, { namingKey }) } : {}),
      }),
      ...(redis && namingKey
        ? { tokens: new RedisTokenStore(redis, { passwords: session.passwords, namingKey }) }
        : {}),
      // The provider counts failed key-pair checks per address in its budget window (the sandbox does); with REDIS_URL
      // the allowance and the verdicts are the address's over every instance, not this process's.
      failedChecks: redis
        ? new RedisFailedCheckLimiter(redis, { windowMs: upstream.windowMs })
        : new FailedCheckLimiter({ windowMs: upstream.windowMs }),
      verdicts: redis
        ? new RedisPairVerdictStore(redis)
        : (holder.__ffdVerdictFile = new SqlitePairVerdictStore(session.dbPath)),
      verdictPepper: verdictPepper(session.passwords, upstream.baseUrl),
      onUpstreamCall: (call) => requestContext.getStore()?.upstreamCalls.push(call),
    });
  }
  return holder.__ffdClient;
}

/** Tests only: the next `fleetApi()` is a new client over the configuration as it is then (another upstream). */
export function resetFleetApiForTests(): void {
  holder.__ffdVerdictFile?.close();
  delete holder.__ffdVerdictFile;
  delete holder.__ffdClient;
}
