import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { pairIdentity } from "./credential-checks";
import { SqlitePairVerdictStore } from "./credential-checks-sqlite";
import { FakeClock } from "./fixtures/fake-clock";

/* The pair verdicts in a real SQLite file, as two processes of one machine (or a process and its restart) share it. */

const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const DAY_MS = 24 * 3_600_000;

describe("pair verdicts in a SQLite file", () => {
  let dir: string;
  const stores: SqlitePairVerdictStore[] = [];
  const open = (path: string, clock: FakeClock) => {
    const store = new SqlitePairVerdictStore(path, { clock });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ffd-verdicts-"));
  });
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a verdict for the next process over the same file, under the same pepper; the file names no pair", async () => {
    const clock = new FakeClock(T0);
    const path = join(dir, "state", "sessions.db");
    const pepper = randomBytes(32);
    const pair = { keyId: "ffk_file-checks", secret: "ffs_the-owners-secret-0123456789" };
    const first = open(path, clock);
    await first.set(pairIdentity(pair, pepper), { kind: "verified" }, clock.now() + 30 * DAY_MS);
    first.close();
    // Created owner-only, in an owner-only folder.
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state")).mode & 0o777).toBe(0o700);

    const restarted = open(path, clock);
    await clock.advance(29 * DAY_MS);
    expect(await restarted.get(pairIdentity(pair, pepper), clock.now())).toEqual({ kind: "verified" });
    // Another pepper (another session secret, another upstream) reads nothing.
    expect(await restarted.get(pairIdentity(pair, randomBytes(32)), clock.now())).toBeUndefined();
    const rows = restarted.rows();
    expect(rows.map((r) => r.pair_id)).toEqual([pairIdentity(pair, pepper)]);
    restarted.close();
    const bytes = readFileSync(path, "latin1");
    expect(bytes).not.toContain(pair.keyId);
    expect(bytes).not.toContain(pair.secret);
  });

  it("answers nothing once a verdict's end has passed, and deletes ended rows as new ones come", async () => {
    const clock = new FakeClock(T0);
    const store = open(join(dir, "sessions.db"), clock);
    const refused = { kind: "refused", code: "unauthenticated", message: "Unknown key id or wrong secret." } as const;
    await store.set("a", refused, clock.now() + 15 * 60_000);
    await store.set("b", { kind: "verified" }, clock.now() + 30 * DAY_MS);
    expect(await store.get("a", clock.now())).toEqual(refused);
    await clock.advance(15 * 60_000);
    expect(await store.get("a", clock.now())).toBeUndefined();
    await store.set("c", { kind: "address_refused", message: "allow-list" }, clock.now() + 2 * 60_000);
    expect(store.rows().map((r) => r.pair_id)).toEqual(["c", "b"]);
    // A newer verdict on a pair replaces the older one (a key revoked since it was verified).
    await store.set("b", refused, clock.now() + 15 * 60_000);
    expect(await store.get("b", clock.now())).toEqual(refused);
  });

  it("fails closed when the file cannot be opened: shared_state_unavailable, and it opens again once it can", async () => {
    const clock = new FakeClock(T0);
    const path = join(dir, "sessions.db");
    mkdirSync(path); // a folder where the file should be
    const store = open(path, clock);
    await expect(store.get("a", clock.now())).rejects.toMatchObject({ code: "shared_state_unavailable" });
    await expect(store.set("a", { kind: "verified" }, clock.now() + 1)).rejects.toMatchObject({
      code: "shared_state_unavailable",
    });
    rmSync(path, { recursive: true });
    await store.set("a", { kind: "verified" }, clock.now() + 60_000);
    expect(await store.get("a", clock.now())).toEqual({ kind: "verified" });
  });
});
