import "server-only";

import type { Clock } from "./clock";

export interface TokenEntry {
  token: string;
  /** The provider's expiry is no earlier than this: `expires_in` whole seconds, less one, from when we asked. */
  usableUntilMs: number;
  /** ...and no later than this: `expires_in` seconds from when the answer came. */
  expiredAtMs: number;
}

/**
 * What the client holds per key in this process: its token (or the flight getting one), the Basic fallback. The 429
 * pause and a budget a 429 lowered live in the budget's store (shared through Redis with REDIS_URL: ./budget.ts).
 */
export interface KeyState {
  token: TokenEntry | undefined;
  inflight: Promise<TokenEntry> | undefined;
  basicUntilMs: number;
  scopes: string[] | null;
}

/** Key states are swept of dead entries when the map reaches this size. */
const KEY_STATE_SWEEP_AT = 1_000;

/** The state of every key the client has seen, bounded: dead entries go when the map grows large. */
export class KeyStates {
  private readonly keys = new Map<string, KeyState>();

  constructor(private readonly clock: Clock) {}

  /** The key's state if it has one (reading costs nothing and creates nothing). */
  peek(key: string): KeyState | undefined {
    return this.keys.get(key);
  }

  /** The key's state, created on first use. */
  of(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      if (this.keys.size >= KEY_STATE_SWEEP_AT) this.sweep();
      state = { token: undefined, inflight: undefined, basicUntilMs: 0, scopes: null };
      this.keys.set(key, state);
    }
    return state;
  }

  /** Forgets keys with nothing worth keeping (no live token, no flight, no Basic period), so the map stays bounded. */
  private sweep(): void {
    const now = this.clock.now();
    for (const [key, state] of this.keys) {
      if (
        state.inflight === undefined &&
        (state.token === undefined || state.token.expiredAtMs <= now) &&
        state.basicUntilMs <= now
      )
        this.keys.delete(key);
    }
  }
}
