import "server-only";

/**
 * The BFF's clock. Tests of session expiry move it through a test-only route (enabled by BFF_TEST_HOOKS against a
 * local upstream only); otherwise it is the system clock.
 */
const state = globalThis as typeof globalThis & { __ffdClockOffsetMs?: number };

export function now(): number {
  return Date.now() + (state.__ffdClockOffsetMs ?? 0);
}

export function setClockOffset(ms: number): void {
  state.__ffdClockOffsetMs = ms;
}

/** UTC date of an instant, YYYY-MM-DD. */
export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
