import "server-only";

import { randomUUID } from "node:crypto";

import { credentialKey, type Credentials } from "@/lib/fleet-api";

import { cache } from "../platform/cache";
import { resetConfigForTests } from "../platform/config";
import { resetLoginLimiterForTests } from "../platform/login-limiter-redis";
import { resetSharedRedisForTests } from "../platform/redis";
import { resetFleetApiForTests } from "../platform/upstream";
import type { OperationContext } from "./operation";

/**
 * Tests only: operations run without Next, over a real upstream (test/sandbox-process.ts). `useUpstreamForTest`
 * points the process's client at a sandbox (and empties the cache, so one profile's answers never serve another's);
 * `operationContextForTest` is a signed-in context for a key pair, as the route adapter would build it.
 */
export function useUpstreamForTest(baseUrl: string, env: Record<string, string> = {}): void {
  Object.assign(process.env, { FLEET_API_BASE_URL: baseUrl, SANDBOX: "1", ...env });
  resetConfigForTests();
  resetFleetApiForTests();
  cache().forget("");
}

export function operationContextForTest(
  credentials: Credentials,
  overrides: Partial<OperationContext> = {},
): OperationContext {
  const at = Date.now();
  return {
    session: {
      sid: randomUUID(),
      credentials,
      customerName: null,
      customerCode: null,
      scopes: null,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + 3_600_000,
    },
    key: credentialKey(credentials),
    signal: new AbortController().signal,
    priority: "interactive",
    mirror: () => Promise.resolve(null),
    ...overrides,
  };
}

/**
 * Tests only: what a restart of the app leaves of this process's state — nothing in memory (the client, its tokens,
 * the in-process sign-in limiter, the Redis connection); what is in SESSION_DB's file or in Redis stays. The
 * configuration is read again from the environment as it is then.
 */
export function restartForTest(env: Record<string, string> = {}): void {
  Object.assign(process.env, env);
  resetFleetApiForTests();
  resetLoginLimiterForTests();
  resetSharedRedisForTests();
  resetConfigForTests();
  cache().forget("");
}
