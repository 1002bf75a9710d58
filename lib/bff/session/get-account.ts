import "server-only";

import { isFleetApiError } from "@/lib/fleet-api";
import type { Account } from "@/lib/model";

import { cached, sessionOperation } from "../http/operation";
import { NoQuery } from "../http/query";
import { cache, UPSTREAM_ACCOUNT, upstreamAccountKey } from "../platform/cache";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { fleetApi } from "../platform/upstream";
import { computeTotals30d } from "./account-totals";

/** GET /api/account — the account and rolling 30-day totals (computed from transactions when the upstream has none). */
export const getAccount = sessionOperation({
  route: "GET /api/account",
  input: { query: NoQuery },
  csrf: "same-site",
  priority: "interactive",
  // Shared with the other instances (Redis), as the upstream account under it.
  cache: { name: "account", ttlMs: () => getConfig().cacheTtlMs.account, shared: true },
  run: (ctx, _input): Promise<Account> =>
    cached(ctx, getAccount.cache, undefined, async (signal) => {
      // The upstream's account as the sign-in read it moments ago, when it is still fresh (one request saved).
      const upstream = await cache().get<Account>(
        upstreamAccountKey(ctx.key),
        getConfig().cacheTtlMs.account,
        (inner) => fleetApi().getAccount(ctx.session.credentials, { signal: inner, priority: ctx.priority }),
        signal,
        UPSTREAM_ACCOUNT,
      );
      if (upstream.totals30d !== null) return upstream;
      try {
        // A walk of the last 30 days: bulk, so it never holds up what a person is waiting for.
        const totals = await computeTotals30d(fleetApi(), ctx.session.credentials, now(), "bulk", signal);
        return { ...upstream, totals30d: { ...totals, source: "computed" as const } };
      } catch (error) {
        // A key without the transactions scope still sees its account, without totals.
        if (isFleetApiError(error) && error.code === "scope_denied") return upstream;
        throw error;
      }
    }),
});
