import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

import { FailedCheckLimiter, FleetApiClient, RequestBudget, type UpstreamCall } from "@/lib/fleet-api";

import { getConfig } from "./config";

/** Upstream calls made while serving one BFF request (for its log line and the economy figures). */
export interface RequestContext {
  upstreamCalls: UpstreamCall[];
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const holder = globalThis as typeof globalThis & { __ffdClient?: FleetApiClient };

/** One client per process: one token cache, one request budget per key, shared by every request and tab. */
export function fleetApi(): FleetApiClient {
  if (!holder.__ffdClient) {
    const { upstream } = getConfig();
    holder.__ffdClient = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      allowInsecureHttp: upstream.allowInsecureHttp,
      timeoutMs: upstream.timeoutMs,
      budget: new RequestBudget({ budget: upstream.budget, windowMs: upstream.windowMs }),
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
