import "server-only";

import { BffError } from "../http/errors";

/**
 * How many long jobs (exports, summary walks) may run at once for one session and for one key (every session of
 * it together). Beyond either bound a new job is refused with a 429 at once, before it spends an upstream call or
 * waits for the budget: one user cannot pile up work that queues behind itself without end, or hold the server's
 * memory and the key's budget for everyone else. In memory: the job and its slot live in one instance.
 */
export interface RunningBounds {
  perSession: number;
  perKey: number;
  /** What the refusal says, naming the bound that was reached; the page shows it as is. */
  message: (bound: "session" | "key", limit: number) => string;
}

/** A job's hold on its slots; `release` is idempotent, so every way a job can end may call it. */
export interface RunningSlot {
  release(): void;
}

export class RunningLimit {
  private readonly bySession = new Map<string, number>();
  private readonly byKey = new Map<string, number>();

  constructor(private readonly bounds: RunningBounds) {}

  /** Takes a slot of the session and of the key, or throws a 429 `too_many_running` naming the bound reached. */
  acquire(sid: string, key: string): RunningSlot {
    if ((this.bySession.get(sid) ?? 0) >= this.bounds.perSession) throw this.refusal("session", this.bounds.perSession);
    if ((this.byKey.get(key) ?? 0) >= this.bounds.perKey) throw this.refusal("key", this.bounds.perKey);
    bump(this.bySession, sid, 1);
    bump(this.byKey, key, 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        bump(this.bySession, sid, -1);
        bump(this.byKey, key, -1);
      },
    };
  }

  /** Runs `job` holding a slot (refused with a 429 when none is free); the slot is freed however the job ends. */
  async run<T>(sid: string, key: string, job: () => Promise<T>): Promise<T> {
    const slot = this.acquire(sid, key);
    try {
      return await job();
    } finally {
      slot.release();
    }
  }

  /**
   * Jobs running now for a key, whatever session or tab started them: an export holds the key's whole request budget,
   * so the stations page can say why its catalog waits (GET /api/locations/progress).
   */
  runningForKey(key: string): number {
    return this.byKey.get(key) ?? 0;
  }

  /** Jobs running now for a session and for a key (for tests). */
  running(sid: string, key: string): { session: number; key: number } {
    return { session: this.bySession.get(sid) ?? 0, key: this.byKey.get(key) ?? 0 };
  }

  private refusal(bound: "session" | "key", limit: number): BffError {
    // A few seconds: long jobs end, or are cancelled, on that scale; the page shows the message, not a countdown.
    return new BffError("too_many_running", this.bounds.message(bound, limit), {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    });
  }
}

const RETRY_AFTER_SECONDS = 10;

function bump(counts: Map<string, number>, id: string, by: number): void {
  const next = (counts.get(id) ?? 0) + by;
  if (next > 0) counts.set(id, next);
  else counts.delete(id);
}

/** Exports running at once: 3 per session (a person with several tabs), 5 per key (several people sharing one key). */
const EXPORT_BOUNDS = { perSession: 3, perKey: 5 } as const;
/** Summary walks running at once (the overview page asks for one at a time): 2 per session, 4 per key. */
const SUMMARY_BOUNDS = { perSession: 2, perKey: 4 } as const;

const holder = globalThis as typeof globalThis & {
  __ffdExportLimit?: RunningLimit;
  __ffdSummaryLimit?: RunningLimit;
  __ffdMirrorReadLimit?: { perSession: number; limit: RunningLimit };
};

/** The one export limit of the process (on globalThis: every route bundle shares it). */
export function exportLimit(): RunningLimit {
  holder.__ffdExportLimit ??= new RunningLimit({
    ...EXPORT_BOUNDS,
    message: (bound, limit) =>
      bound === "session"
        ? `You already have ${String(limit)} exports running. Wait for one to finish, or cancel one, then export again.`
        : `This API key already has ${String(limit)} exports running (from every session signed in with it). Wait for one to finish, then export again.`,
  });
  return holder.__ffdExportLimit;
}

/** The one summary limit of the process. */
export function summaryLimit(): RunningLimit {
  holder.__ffdSummaryLimit ??= new RunningLimit({
    ...SUMMARY_BOUNDS,
    message: (bound, limit) =>
      bound === "session"
        ? `${String(limit)} summaries are already being worked out for you. Wait for them to finish, then try again.`
        : `${String(limit)} summaries are already being worked out for this API key (from every session signed in with it). Wait for them to finish, then try again.`,
  });
  return holder.__ffdSummaryLimit;
}

/**
 * The one limit of mirror-backed requests (every operation with `reads: "transactions"` but those with a slot of their
 * own): `perSession` at once per session (MIRROR_READS_PER_SESSION, default 3: a page's few parallel loads fit, a
 * burst of heavy questions does not). Per instance, not shared through Redis: what it protects is this process's
 * event loop and worker pool; each instance has its own, and a session's requests spread over instances load each
 * one less. No per-key bound beyond the per-session one: sessions of one key are different people.
 */
export function mirrorReadLimit(perSession: number): RunningLimit {
  if (holder.__ffdMirrorReadLimit?.perSession !== perSession)
    holder.__ffdMirrorReadLimit = {
      perSession,
      limit: new RunningLimit({
        perSession,
        perKey: Number.MAX_SAFE_INTEGER,
        message: (_bound, limit) =>
          `You already have ${String(limit)} reports loading (in this or another tab). Wait for them to finish, then try again.`,
      }),
    };
  return holder.__ffdMirrorReadLimit.limit;
}
