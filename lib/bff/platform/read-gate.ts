import "server-only";

/**
 * Tests only (POST /api/test-hooks/reads): holds every slotted mirror read after it took its slot and before it runs,
 * so a test can have N requests provably in flight, then see the next one refused (429) and /api/livez answered,
 * without any timing. Open unless a test closes it; a held read still ends when its request goes away.
 */
interface Gate {
  held: boolean;
  waiting: Set<() => void>;
}

const holder = globalThis as typeof globalThis & { __ffdReadGate?: Gate };
const gate = (): Gate => (holder.__ffdReadGate ??= { held: false, waiting: new Set() });

/** Closes (true) or opens (false) the gate; opening lets every waiting read run. */
export function holdReads(held: boolean): void {
  const g = gate();
  g.held = held;
  if (held) return;
  for (const wake of g.waiting) wake();
  g.waiting.clear();
}

/** Reads waiting at the closed gate now. */
export function readsWaiting(): number {
  return gate().waiting.size;
}

/** Resolves at once while the gate is open; else when it opens or `signal` aborts (then it rejects). */
export function passReadGate(signal: AbortSignal): Promise<void> {
  const g = gate();
  if (!g.held) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const wake = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    const onAbort = () => {
      g.waiting.delete(wake);
      reject(signal.reason instanceof Error ? signal.reason : new Error("The request went away."));
    };
    g.waiting.add(wake);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
