import { threadId } from "node:worker_threads";

import { judgePendingBatch } from "@/lib/insights/savings-stored-judge";
import {
  detailFigures,
  jurisdictionReport,
  type MirrorStore,
  periodTotals,
  rankedFigures,
  spendTotals,
  summarize,
} from "@/lib/mirror";

import { judgePlain } from "./tasks-exceptions";
import { savingsBoth } from "./tasks-savings";

/** A read's arguments after the store, as one tuple (what crosses to the worker). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any read's parameters; only the tail is used
type Tail<F extends (store: MirrorStore, ...rest: any[]) => unknown> = F extends (
  store: MirrorStore,
  ...rest: infer R
) => unknown
  ? R
  : never;

/**
 * The heavy reads that run in the worker pool (./pool.ts): each a function of (the store, plain arguments) answering
 * plain data (structured-clonable: no functions, no BigInt). The same function runs inline on PostgreSQL (its driver
 * is async already) or with MIRROR_WORKERS=0. Wiring another read off the thread is one line here and a call to
 * `offThread` where the route ran it.
 */
export const OFF_THREAD_TASKS = {
  "exceptions.judge": judgePlain,
  "jurisdictions.report": (store: MirrorStore, a: Tail<typeof jurisdictionReport>) => jurisdictionReport(store, ...a),
  "drilldowns.ranked": (store: MirrorStore, a: Tail<typeof rankedFigures>) => rankedFigures(store, ...a),
  "drilldowns.detail": (store: MirrorStore, a: Tail<typeof detailFigures>) => detailFigures(store, ...a),
  "savings.both": savingsBoth,
  "savings.judge-pending": judgePendingBatch,
  "summary.summarize": (store: MirrorStore, a: Tail<typeof summarize>) => summarize(store, ...a),
  "summary.period-totals": (store: MirrorStore, a: Tail<typeof periodTotals>) => periodTotals(store, ...a),
  "summary.spend-totals": (store: MirrorStore, a: Tail<typeof spendTotals>) => spendTotals(store, ...a),
  /** Tests only: which thread ran it (0 is the main thread). */
  "test.thread": (_store: MirrorStore, _args: null) => Promise.resolve({ threadId }),
  /** Tests only: a query the database refuses, as a bug in a read would be. */
  "test.bad-query": async (store: MirrorStore, _args: null) => {
    await store.db
      .selectFrom("mirror_transactions")
      .select("no_such_column" as "id")
      .execute();
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
