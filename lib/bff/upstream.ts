import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";
import { hkdfSync } from "node:crypto";

import {
  FailedCheckLimiter,
  FleetApiClient,
  RedisBudgetStore,
  RedisTokenStore,
  RequestBudget,
  type UpstreamCall,
} from "@/lib/fleet-api";

import { getConfig } from "./config";
import { sharedRedis } from "./redis";

/** Upstream calls made while serving one BFF request (for its log line and the economy figures). */
export interface RequestContext {
  upstreamCalls: UpstreamCall[];
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const holder = globalThis as typeof globalThis & { __ffdClient?: FleetApiClient };

/**
 * The key naming key pairs in Redis (an HMAC key, budget-store-redis.ts): derived from the newest session password,
 * which every instance shares, so all of them name a key pair alike and a copy of Redis names none.
 */
function redisNamingKey(passwords: Record<string, string>): Uint8Array {
  const newest = Object.keys(passwords).sort((a, b) => Number(b) - Number(a))[0] ?? "";
  return new Uint8Array(hkdfSync("sha256", passwords[newest] ?? "", "ffd-redis-names", "key pair names", 32));
}

/**
 * One client per process: one token cache, one request budget per key, shared by every request and tab. With
 * REDIS_URL, the budget and the token are shared by every instance too (the process's one Redis connection).
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
      budget: new RequestBudget({
        budget: upstream.budget,
        windowMs: upstream.windowMs,
        ...(redis && namingKey ? { store: new RedisBudgetStore(redis, { namingKey }) } : {}),
      }),
      ...(redis && namingKey
        ? { tokens: new RedisTokenStore(redis, { passwords: session.passwords, namingKey }) }
        : {}),
      // The provider counts failed key-pair checks per address in its budget window (the sandbox does).
      failedChecks: new FailedCheckLimiter({ windowMs: upstream.windowMs }),
      onUpstreamCall: (call) => requestContext.getStore()?.upstreamCalls.push(call),
    });
  }
  return holder.__ffdClient;
}

/** Tests only: the next `fleetApi()` is a new client over the configuration as it is then (another upstream). */
export function resetFleetApiForTests(): void {
  delete holder.__ffdClient;
}
