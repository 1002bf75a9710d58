import { randomUUID } from "node:crypto";

import type { Credentials, FleetApiClient } from "@/lib/fleet-api";

import type { ActiveSession } from "../platform/session";

/** Tests only (lib/bff/sync/service*.test.ts): reads until `done` says yes (polling; no timing asserted). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A session as sign-in makes it (the upstream's scopes, the account's customer code), for the service's tests. */
export async function sessionFor(client: FleetApiClient, credentials: Credentials): Promise<ActiveSession> {
  const { scopes } = await client.authenticate(credentials);
  const account = await client.getAccount(credentials);
  const at = Date.now();
  return {
    sid: randomUUID(),
    credentials,
    customerName: account.name,
    customerCode: account.code,
    scopes,
    createdAt: at,
    lastSeenAt: at,
    expiresAt: at + 3_600_000,
  };
}
