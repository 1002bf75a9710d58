/**
 * A health probe's answer, kept for `ttlMs` and shared by every caller that asks while it runs (single flight): however
 * many requests reach a public probe route, what it checks is asked at most once at a time and once per `ttlMs`.
 * A probe that throws is not kept (the next caller runs it again); the probes of /api/healthz never throw.
 *
 * Not lib/bff/platform/cache.ts's TtlCache: that one keys entries by a customer's credential and aborts a load its callers gave
 * up on; a probe has one entry, no credential, and must finish for the next caller. This is the whole of it.
 */
export function cachedProbe<T>(
  probe: () => Promise<T>,
  options: { ttlMs: number; now: () => number },
): () => Promise<T> {
  let last: { value: T; atMs: number } | undefined;
  let flight: Promise<T> | undefined;
  return () => {
    if (last !== undefined && options.now() - last.atMs < options.ttlMs) return Promise.resolve(last.value);
    flight ??= probe()
      .then((value) => {
        last = { value, atMs: options.now() };
        return value;
      })
      .finally(() => {
        flight = undefined;
      });
    return flight;
  };
}
