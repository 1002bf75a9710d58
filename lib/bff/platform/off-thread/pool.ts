import { Worker } from "node:worker_threads";

import type { MirrorStore } from "@/lib/mirror";

import { getConfig } from "../config";
import { OFF_THREAD_TASKS, type OffThreadTask, type TaskArgs, type TaskResult } from "./tasks";

/**
 * The mirror's heavy reads off the request thread (issue 25 item 7): better-sqlite3 is synchronous, so a long read on
 * the main thread stalls every request of the process (/api/livez took 7 s under 40 heavy requests). A small pool of
 * worker threads (MIRROR_WORKERS, default 2), each with one read-only connection to the SQLite file, runs the tasks of
 * ./tasks.ts; the main thread only waits. On PostgreSQL (async driver) or with MIRROR_WORKERS=0 a task runs inline.
 * node:worker_threads rather than piscina: the pool needs only a queue and a restart, and a worker file Next can
 * bundle (`new Worker(new URL(..., import.meta.url))`, which Turbopack compiles as an entry of its own).
 */

/** Why a task failed in the pool: a bug of ours (the route answers 500 with this sentence, never the SQL). */
export class OffThreadError extends Error {
  override name = "OffThreadError";
}

interface Job {
  id: number;
  task: OffThreadTask;
  args: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export interface OffThreadStats {
  /** Worker threads started so far (a crashed one is replaced by a new one). */
  started: number;
  /** Tasks answered by a worker. */
  done: number;
  /** The same, per task (the background savings loop shares the pool with the routes' reads). */
  doneByTask: Partial<Record<OffThreadTask, number>>;
  /** Tasks that failed (their error, or their worker's end). */
  failed: number;
}

/**
 * A worker thread. In the built app (NEXT_RUNTIME set) the literal `new Worker(new URL("./worker.ts", import.meta.url))`
 * is what Turbopack recognises and compiles into a chunk of its own; under vitest and tsx the entry is TypeScript, which
 * a thread loads through ./ts-boot.mjs (tsx's loader), with the server condition the app's code is built with.
 */
function startWorker(file: string): Worker {
  if (process.env.NEXT_RUNTIME !== undefined)
    return new Worker(new URL("./worker.ts", import.meta.url), { workerData: { file } });
  const boot = new URL("./ts-boot.mjs", import.meta.url);
  const entry = new URL("./worker.ts", import.meta.url).href;
  return new Worker(boot, { workerData: { file, entry }, execArgv: ["--conditions=react-server"] });
}

class OffThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  readonly stats: OffThreadStats = { started: 0, done: 0, doneByTask: {}, failed: 0 };

  constructor(
    private readonly file: string,
    private readonly size: number,
  ) {}

  run(task: OffThreadTask, args: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, args, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (slot === undefined && this.slots.length < this.size) slot = this.spawn();
      if (slot === undefined) return;
      const job = this.queue.shift();
      if (job === undefined) return;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, task: job.task, args: job.args });
    }
  }

  private spawn(): Slot {
    const worker = startWorker(this.file);
    // An idle worker must not keep the process alive (a test's or a script's end).
    worker.unref();
    const slot: Slot = { worker, job: null };
    this.stats.started++;
    worker.on("message", (m: { id: number; ok: boolean; result?: unknown; message?: string }) => {
      const job = slot.job;
      if (job?.id !== m.id) return;
      slot.job = null;
      if (m.ok) {
        this.stats.done++;
        this.stats.doneByTask[job.task] = (this.stats.doneByTask[job.task] ?? 0) + 1;
        job.resolve(m.result);
      } else {
        this.stats.failed++;
        job.reject(new OffThreadError(`A report's read failed: ${m.message ?? "unknown error"}`));
      }
      this.pump();
    });
    const end = (why: string) => {
      const index = this.slots.indexOf(slot);
      if (index === -1) return;
      this.slots.splice(index, 1);
      if (slot.job !== null) {
        this.stats.failed++;
        slot.job.reject(new OffThreadError(`A report's worker thread stopped (${why}); try again.`));
      }
      // The next task starts a fresh worker in its place.
      this.pump();
    };
    worker.on("error", (error) => {
      end(error.message);
    });
    worker.on("exit", (code) => {
      end(`exit code ${String(code)}`);
    });
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

const holder = globalThis as typeof globalThis & { __ffdOffThread?: Map<string, OffThreadPool> };

function poolFor(file: string, size: number): OffThreadPool {
  holder.__ffdOffThread ??= new Map();
  const key = `${file}\u0000${String(size)}`;
  let pool = holder.__ffdOffThread.get(key);
  if (pool === undefined) holder.__ffdOffThread.set(key, (pool = new OffThreadPool(file, size)));
  return pool;
}

/**
 * Runs `task` over the store: in a worker thread of the store's pool when it is a SQLite file and `workers` > 0,
 * else inline (PostgreSQL's driver is async: the loop stays free while it waits).
 */
export async function offThread<T extends OffThreadTask>(
  store: MirrorStore,
  workers: number,
  task: T,
  args: TaskArgs<T>,
): Promise<TaskResult<T>> {
  if (store.file === null || workers === 0) {
    const run = OFF_THREAD_TASKS[task] as (store: MirrorStore, args: TaskArgs<T>) => Promise<TaskResult<T>>;
    return run(store, args);
  }
  return (await poolFor(store.file, workers).run(task, args)) as TaskResult<T>;
}

/** `offThread` with the configured pool size (MIRROR_WORKERS): what the routes call. */
export function readOffThread<T extends OffThreadTask>(
  store: MirrorStore,
  task: T,
  args: TaskArgs<T>,
): Promise<TaskResult<T>> {
  return offThread(store, getConfig().mirrorWorkers, task, args);
}

/** What the pools of the process have done (tests, through POST /api/test-hooks/reads). */
export function offThreadStats(): OffThreadStats {
  const total: OffThreadStats = { started: 0, done: 0, doneByTask: {}, failed: 0 };
  for (const pool of holder.__ffdOffThread?.values() ?? []) {
    total.started += pool.stats.started;
    total.done += pool.stats.done;
    total.failed += pool.stats.failed;
    for (const [task, n] of Object.entries(pool.stats.doneByTask) as [OffThreadTask, number][])
      total.doneByTask[task] = (total.doneByTask[task] ?? 0) + n;
  }
  return total;
}

/** Tests only: ends every pool's workers. */
export async function closeOffThreadPools(): Promise<void> {
  const pools = [...(holder.__ffdOffThread?.values() ?? [])];
  holder.__ffdOffThread?.clear();
  await Promise.all(pools.map((p) => p.close()));
}
