import { parseQuery, withSession } from "@/lib/bff/handler";
import { NoQuery } from "@/lib/bff/params";
import { cache, upstreamAccountKey } from "@/lib/bff/cache";
import { now } from "@/lib/bff/clock";
import { getConfig } from "@/lib/bff/config";
import { computeTotals30d } from "@/lib/bff/summary";
import { fleetApi } from "@/lib/bff/upstream";
import { isFleetApiError } from "@/lib/fleet-api";
import type { Account } from "@/lib/model";

// GET /api/account — the account and rolling 30-day totals (computed from transactions when the upstream has none)
export const GET = withSession("GET /api/account", async ({ request, session, key }) => {
  parseQuery(request, NoQuery);
  const ttl = getConfig().cacheTtlMs.account;
  const account = await cache().get<Account>(
    `${key}:account`,
    ttl,
    async (signal) => {
      // The upstream's account as the sign-in read it moments ago, when it is still fresh (one request saved).
      const upstream = await cache().get<Account>(
        upstreamAccountKey(key),
        ttl,
        (inner) => fleetApi().getAccount(session.credentials, { signal: inner }),
        signal,
      );
      if (upstream.totals30d !== null) return upstream;
      try {
        // A walk of the last 30 days: bulk, so it never holds up what a person is waiting for.
        const totals = await computeTotals30d(fleetApi(), session.credentials, now(), "bulk", signal);
        return { ...upstream, totals30d: { ...totals, source: "computed" as const } };
      } catch (error) {
        // A key without the transactions scope still sees its account, without totals.
        if (isFleetApiError(error) && error.code === "scope_denied") return upstream;
        throw error;
      }
    },
    request.signal,
  );
  return Response.json(account);
});
