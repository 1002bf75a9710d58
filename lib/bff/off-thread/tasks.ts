import { threadId } from "node:worker_threads";

import type { MirrorStore } from "@/lib/mirror";

import { judgePlain } from "./tasks-exceptions";

/**
 * The heavy reads that run in the worker pool (./pool.ts): each a function of (the store, plain arguments) answering
 * plain data (structured-clonable: no functions, no BigInt). The same function runs inline on PostgreSQL (its driver
 * is async already) or with MIRROR_WORKERS=0. Wiring another read off the thread is one line here and a call to
 * `offThread` where the route ran it.
 */
export const OFF_THREAD_TASKS = {
  "exceptions.judge": judgePlain,
  /** Tests only: which thread ran it (0 is the main thread). */
  "test.thread": (_store: MirrorStore, _args: null) => Promise.resolve({ threadId }),
  /** Tests only: a query the database refuses, as a bug in a read would be. */
  "test.bad-query": async (store: MirrorStore, _args: null) => {
    await store.db.selectFrom("mirror_transactions").select("no_such_column" as "id").execute();
    return null;
  },
  /** Tests only: holds the thread synchronously (as a long SQLite read would) until `flag[0]` is set to 1. */
  "test.hold": (_store: MirrorStore, args: { flag: SharedArrayBuffer }) => {
    const flag = new Int32Array(args.flag);
    Atomics.wait(flag, 0, 0);
    return Promise.resolve({ threadId });
  },
  /** Tests only: the worker dies mid-task, as a native crash would end it. */
  "test.crash": (_store: MirrorStore, _args: null): Promise<never> => {
    process.exit(3);
  },
} as const;

export type OffThreadTasks = typeof OFF_THREAD_TASKS;
export type OffThreadTask = keyof OffThreadTasks;
export type TaskArgs<T extends OffThreadTask> = Parameters<OffThreadTasks[T]>[1];
export type TaskResult<T extends OffThreadTask> = Awaited<ReturnType<OffThreadTasks[T]>>;
