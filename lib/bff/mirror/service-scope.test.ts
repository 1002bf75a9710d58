import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Credentials, FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import type { ActiveSession } from "../session";
import { MirrorService } from "./service";

/**
 * A key without the transactions scope is that key's matter, not its customer's mirror's: against the real sandbox
 * (both profiles) and a real SQLite store, two keys of one customer (PFL), one of them without the scope.
 */

const HOUR = 3_600_000;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(["primary", "alternative"] as const)("the mirror and a key without the scope (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let client: FleetApiClient;
  let dir: string;
  let service: MirrorService;

  /** A session as sign-in makes it: the upstream's scopes and the account's customer code. */
  async function signIn(credentials: Credentials): Promise<ActiveSession> {
    const { scopes } = await client.authenticate(credentials);
    const account = await client.getAccount(credentials);
    const at = Date.now();
    const session: ActiveSession = {
      sid: randomUUID(),
      credentials,
      customerName: account.name,
      customerCode: account.code,
      scopes,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + HOUR,
    };
    await service.signedIn(session);
    return session;
  }

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
    });
    dir = mkdtempSync(join(tmpdir(), "ffd-mirror-scope-"));
    service = new MirrorService({
      config: { enabled: true, path: join(dir, "mirror.db"), databaseUrl: undefined, retentionMs: 30 * 24 * HOUR },
      client,
      windowMs: 60_000,
      idleMs: HOUR,
      absoluteMs: 12 * HOUR,
      now: () => Date.now(),
      endSessions: () => Promise.resolve(),
      warn: () => undefined,
    });
  });
  afterAll(async () => {
    await service.close();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a key's missing transactions scope to that key: a full-scope session of the same customer stays ready", async () => {
    const full = await signIn(upstream.keys["demo-full"]);
    const ready = await until(
      () => service.status(full),
      (s: SyncStatusReply) => !s.running && s.state !== "starting",
    );
    expect(ready).toMatchObject({ state: "ready", error: null });
    // The same customer with a key that may not read transactions (primary: scopes unreported, so its sync tries).
    const partial = await signIn(upstream.keys["demo-no-transactions"]);
    const refused = await until(
      () => service.status(partial),
      (s) => s.state === "off",
    );
    expect(refused.error).toMatch(/may not read transactions/);
    expect(await service.status(full)).toMatchObject({ state: "ready", error: null });
    expect(await service.gate(full)).not.toBeNull();
  });
});
