// Under vitest and tsx (not in the built app): a worker thread cannot load TypeScript by itself, so this plain module
// registers tsx's loader in the thread, then imports the worker's TypeScript entry (lib/bff/platform/off-thread/pool.ts).
import { workerData } from "node:worker_threads";

import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
