import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { MirrorStore } from "@/lib/mirror";

import { closeOffThreadPools, offThread, OffThreadError, offThreadStats } from "./pool";

// The worker pool over a real SQLite mirror file (migrated by the app's connection, read by the workers' read-only
// ones). No API is involved: the pool's own behaviour — where a task runs, what a failing or dying worker gives, and
// that the main thread answers while a worker is busy — is what is checked. No timing: only order and outcomes.

const WORKERS = 1;

describe("the mirror's worker pool (lib/bff/platform/off-thread)", () => {
  let dir: string;
  let store: MirrorStore;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ffd-off-thread-"));
    store = await MirrorStore.open({ path: join(dir, "mirror.db") });
    // Stands in for /api/livez: an answer from the main thread's event loop.
    server = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${String(typeof address === "object" && address !== null ? address.port : 0)}`;
  });
  afterAll(async () => {
    await closeOffThreadPools();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs a task in a worker thread, not the main one; inline when workers are 0", async () => {
    const before = offThreadStats().done;
    const off = await offThread(store, WORKERS, "test.thread", null);
    expect(off.threadId).not.toBe(threadId);
    expect(offThreadStats().done).toBe(before + 1);
    expect((await offThread(store, 0, "test.thread", null)).threadId).toBe(threadId);
  });

  it("answers a query the database refuses with a sentence naming it, and the next task runs", async () => {
    const failed = offThread(store, WORKERS, "test.bad-query", null);
    await expect(failed).rejects.toBeInstanceOf(OffThreadError);
    await expect(failed).rejects.toThrow(/^A report's read failed: .*no_such_column/);
    expect((await offThread(store, WORKERS, "test.thread", null)).threadId).not.toBe(threadId);
  });

  it("fails the task of a worker that dies, and starts a fresh worker for the next one", async () => {
    const started = offThreadStats().started;
    await expect(offThread(store, WORKERS, "test.crash", null)).rejects.toThrow(
      /^A report's worker thread stopped \(exit code 3\); try again\.$/,
    );
    const next = await offThread(store, WORKERS, "test.thread", null);
    expect(next.threadId).not.toBe(threadId);
    expect(offThreadStats().started).toBe(started + 1);
  });

  it("keeps the main thread answering while a worker is held in a long synchronous read", async () => {
    const flag = new SharedArrayBuffer(4);
    let held = true;
    const hold = offThread(store, WORKERS, "test.hold", { flag }).then((r) => {
      held = false;
      return r;
    });
    // The worker is blocked (Atomics.wait) until the flag is set; the main thread still serves a request meanwhile.
    const answer = await fetch(origin).then((r) => r.text());
    expect(answer).toBe("ok");
    expect(held).toBe(true);
    const view = new Int32Array(flag);
    Atomics.store(view, 0, 1);
    Atomics.notify(view, 0);
    expect((await hold).threadId).not.toBe(threadId);
    expect(held).toBe(false);
  });
});
