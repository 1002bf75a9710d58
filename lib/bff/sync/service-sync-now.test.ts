import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import type { ActiveSession } from "../platform/session";
import { HEAD_EVERY_MS, MirrorService } from "./service";
import { sessionFor, until } from "./service-test-helpers";

/**
 * Issue 24 item 3: "sync now" (POST /api/sync → MirrorService.syncNow) starts at most one head sync per customer every
 * 30 s, whatever is posted, and its reply says when the next may start. Against the real sandbox (both profiles), its
 * request log counted, a real SQLite store, and an injected clock moved by the test (no timing asserted).
 */

const HOUR = 3_600_000;
const POSTS = 60;

/** The sandbox's log lines of transaction list calls. */
const listCalls = (sb: SandboxProcess) =>
  [...sb.output().matchAll(/\[sandbox\] GET \/\S*transactions(?:\?\S*)? \d{3}/g)].length;
/** The sandbox prints its log line as it answers: give the pipe a moment before counting (not a timing assertion). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(["primary", "alternative"] as const)(
  "sync now and the 30 s head-sync interval (%s profile)",
  (profile) => {
    let upstream: SandboxProcess;
    let dir: string;
    let service: MirrorService;
    let client: FleetApiClient;
    let nowMs = Date.now();

    beforeAll(async () => {
      upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
      dir = mkdtempSync(join(tmpdir(), "ffd-sync-now-"));
      client = new FleetApiClient({
        baseUrl: upstream.baseUrl,
        budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
      });
      service = new MirrorService({
        config: { enabled: true, path: join(dir, "mirror.db"), databaseUrl: undefined, retentionMs: 30 * 24 * HOUR },
        client,
        windowMs: 60_000,
        idleMs: HOUR,
        absoluteMs: 12 * HOUR,
        now: () => nowMs,
        endSessions: () => Promise.resolve(),
        warn: () => undefined,
      });
    });
    afterAll(async () => {
      await service.close();
      await upstream.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const idle = (session: ActiveSession) =>
      until(
        () => service.status(session),
        (s: SyncStatusReply) => !s.running && s.state === "ready",
      );
    const iso = (ms: number) => new Date(ms).toISOString();

    it(`${String(POSTS)} posts within 30 s of a head sync start none; the reply says when the next may`, async () => {
      const session = await sessionFor(client, upstream.keys["demo-full"]);
      await service.signedIn(session);
      const ready = await idle(session);
      const lastHead = Date.parse(ready.lastHeadSync ?? "");
      expect(ready.nextHeadSync).toBe(iso(lastHead + HEAD_EVERY_MS));

      await settle();
      const before = listCalls(upstream);
      for (let i = 0; i < POSTS; i++) {
        nowMs = lastHead + Math.floor((i * (HEAD_EVERY_MS - 1_000)) / POSTS); // all inside the 30 s
        const reply = await service.syncNow(session);
        expect(reply.nextHeadSync).toBe(iso(lastHead + HEAD_EVERY_MS));
        expect(reply.running).toBe(false);
      }
      await settle();
      expect(listCalls(upstream) - before).toBe(0);

      // 30 s on: the next post starts one head sync (its calls counted), and the posts after it start none.
      nowMs = lastHead + HEAD_EVERY_MS;
      const started = await service.syncNow(session);
      expect(started.running).toBe(true);
      expect(started.nextHeadSync).toBe(iso(nowMs + HEAD_EVERY_MS));
      await idle(session);
      await settle();
      const oneHead = listCalls(upstream) - before;
      expect(oneHead).toBeGreaterThan(0);
      for (let i = 0; i < POSTS; i++) {
        nowMs += 400;
        await service.syncNow(session);
      }
      await idle(session);
      await settle();
      expect(listCalls(upstream) - before).toBe(oneHead);
    });
  },
);
