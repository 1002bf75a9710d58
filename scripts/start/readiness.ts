/** Readiness of what the launcher starts: free ports before, HTTP answers after. */
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

import { lifecycle } from "./children";

const POLL_INTERVAL_MS = 500;
const PROGRESS_INTERVAL_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;

/** Resolves to undefined when the port can be bound, else to the error code (EADDRINUSE, EACCES…). */
function probePortFree(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
    server.listen({ port, exclusive: true }, () => {
      server.close(() => {
        resolve(undefined);
      });
    });
  });
}

export async function assertPortFree(port: number, variable: string): Promise<void> {
  const problem = await probePortFree(port);
  if (problem === undefined) return;
  const why = problem === "EADDRINUSE" ? "is already in use" : `cannot be used (${problem})`;
  throw new Error(`Port ${port} (${variable}) ${why}. Stop whatever holds it or set ${variable} to another port.`);
}

/** One HTTP probe: the status code, or undefined when nothing answered in time. */
async function probeHttp(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      redirect: "manual",
      signal: AbortSignal.any([lifecycle.signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

interface WaitOptions {
  url: string;
  what: string;
  timeoutMs: number;
  isReady: (status: number) => boolean;
  onProgress?: (elapsedSeconds: number) => void;
}

export async function waitForHttp({ url, what, timeoutMs, isReady, onProgress }: WaitOptions): Promise<void> {
  const startedAt = Date.now();
  let nextProgressAt = startedAt + PROGRESS_INTERVAL_MS;
  for (;;) {
    lifecycle.signal.throwIfAborted();
    const status = await probeHttp(url);
    if (status !== undefined && isReady(status)) return;
    const now = Date.now();
    if (now - startedAt >= timeoutMs) {
      const last = status === undefined ? "no answer" : `last status ${status}`;
      throw new Error(`The ${what} did not become ready at ${url} within ${timeoutMs / 1000} s (${last}).`);
    }
    if (onProgress !== undefined && now >= nextProgressAt) {
      nextProgressAt += PROGRESS_INTERVAL_MS;
      onProgress(Math.round((now - startedAt) / 1000));
    }
    await delay(POLL_INTERVAL_MS, undefined, { signal: lifecycle.signal });
  }
}
