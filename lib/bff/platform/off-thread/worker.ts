import { parentPort, workerData } from "node:worker_threads";

import { MirrorStore } from "@/lib/mirror";

import { OFF_THREAD_TASKS, type OffThreadTask } from "./tasks";

/**
 * One worker thread of the pool (./pool.ts): its own read-only connection to the mirror's SQLite file, and the tasks
 * of ./tasks.ts run one at a time as the pool sends them.
 */
interface Request {
  id: number;
  task: OffThreadTask;
  args: unknown;
}

const store = MirrorStore.openReadOnly((workerData as { file: string }).file);
const port = parentPort;
if (port === null) throw new Error("lib/bff/platform/off-thread/worker.ts runs as a worker thread only.");

port.on("message", (message: Request) => {
  const run = OFF_THREAD_TASKS[message.task] as (store: MirrorStore, args: unknown) => Promise<unknown>;
  run(store, message.args).then(
    (result) => {
      port.postMessage({ id: message.id, ok: true, result });
    },
    (error: unknown) => {
      port.postMessage({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
    },
  );
});
