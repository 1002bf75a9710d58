import type { Clock } from "@/lib/fleet-api/clock";

/**
 * A clock whose sleeps return at once and move time forward by what was asked: backoff, Retry-After pauses and
 * the request budget play out in virtual time, so tests run in milliseconds and can assert how long was waited.
 */
export class VirtualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public ms = Date.parse("2026-06-15T12:00:00Z")) {}
  now = (): number => this.ms;
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason as Error;
    this.sleeps.push(ms);
    this.ms += Math.max(0, ms);
    await Promise.resolve();
  };
  /** Total virtual time slept. */
  get slept(): number {
    return this.sleeps.reduce((a, b) => a + b, 0);
  }
}
