import "server-only";

import { randomBytes } from "node:crypto";

import Database from "better-sqlite3";

import { ensurePrivateFile } from "@/lib/private-files";

import { getConfig } from "./config";
import { logger } from "./log";

const BEAT_MS = 15_000;
/** A row newer than this is a live process (a crashed one's row goes stale and is pruned). */
const ALIVE_MS = 3 * BEAT_MS;

const holder = globalThis as typeof globalThis & { __ffdHeartbeat?: NodeJS.Timeout };

/** Whether process `pid` on this machine still runs (signal 0 tests without sending; EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Without REDIS_URL each process keeps its own request budget, tokens, sign-in limiter and caches: two instances
 * behind one address spend twice the provider's budget. Where it can be seen — processes sharing the session database
 * (SESSION_DB, one machine) — each process writes a heartbeat row and warns once, in one log line, when it sees
 * another live one. Nothing with REDIS_URL (the state is shared then). A process that stops removes its row; one
 * that was killed (its row still fresh) is told apart by its pid, which no longer runs: a restart after Ctrl-C is not
 * "another instance".
 */
export function watchForOtherInstances(): void {
  const { redisUrl, session } = getConfig();
  if (redisUrl || holder.__ffdHeartbeat) return;
  const id = randomBytes(8).toString("hex");
  // Opened on the first beat that can: a file another process is creating at the same moment (instances started
  // together) or a read-only one must never stop this process from serving — the warning is best effort.
  let statements:
    | {
        beat: Database.Statement<[string, number, number]>;
        prune: Database.Statement<[number]>;
        others: Database.Statement<[string, number], { pid: number }>;
        leave: Database.Statement<[string]>;
      }
    | undefined;
  const open = () => {
    ensurePrivateFile(session.dbPath, {
      warn: (message) => {
        logger().warn(message);
      },
    });
    const db = new Database(session.dbPath, { timeout: 5000 });
    try {
      db.pragma("journal_mode = WAL");
      db.exec(
        "CREATE TABLE IF NOT EXISTS instances (id TEXT PRIMARY KEY, pid INTEGER NOT NULL, seen_ms INTEGER NOT NULL)",
      );
      return {
        beat: db.prepare<[string, number, number]>(
          "INSERT INTO instances (id, pid, seen_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET seen_ms = excluded.seen_ms",
        ),
        prune: db.prepare<[number]>("DELETE FROM instances WHERE seen_ms < ?"),
        others: db.prepare<[string, number], { pid: number }>(
          "SELECT pid FROM instances WHERE id <> ? AND seen_ms >= ?",
        ),
        leave: db.prepare<[string]>("DELETE FROM instances WHERE id = ?"),
      };
    } catch (error) {
      db.close();
      throw error;
    }
  };
  let warned = false;
  const tick = () => {
    try {
      statements ??= open();
      const { beat, prune, others } = statements;
      // The system clock, not the BFF's (tests move that one forward in one process).
      const t = Date.now();
      beat.run(id, process.pid, t);
      prune.run(t - ALIVE_MS);
      const n = others.all(id, t - ALIVE_MS).filter((row) => isRunning(row.pid)).length;
      if (n > 0 && !warned) {
        warned = true;
        logger().warn(
          { otherInstances: n },
          "another dashboard instance shares this session database while REDIS_URL is unset: each keeps its own request budget, sign-in limiter and caches, so together they can exceed the provider's budget. Set REDIS_URL on every instance (docs/several-instances.md).",
        );
      }
    } catch {
      // A busy or read-only file: the warning is best effort, never a reason to fail; the next beat tries again.
    }
  };
  tick();
  holder.__ffdHeartbeat = setInterval(tick, BEAT_MS);
  holder.__ffdHeartbeat.unref();
  // `next start` exits on SIGINT/SIGTERM through process.exit: the row goes with the process (synchronous, as "exit"
  // handlers must be).
  process.once("exit", () => {
    try {
      statements?.leave.run(id);
    } catch {
      // Best effort, as the beats are: a stale row is pruned after ALIVE_MS, and its pid is not running anyway.
    }
  });
}
