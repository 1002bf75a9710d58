import { describe, expect, it } from "vitest";

import { VirtualClock } from "@/test/virtual-clock";

import { KeyStates } from "./key-state";

describe("KeyStates", () => {
  it("creates a key's state on first use and returns the same one after", () => {
    const states = new KeyStates(new VirtualClock());
    expect(states.peek("a")).toBeUndefined();
    const state = states.of("a");
    expect(state).toEqual({ token: undefined, inflight: undefined, basicUntilMs: 0, scopes: null });
    expect(states.of("a")).toBe(state);
    expect(states.peek("a")).toBe(state);
  });

  it("stays bounded: at 1,000 keys, those with nothing worth keeping go; a live token or a Basic period stays", () => {
    const clock = new VirtualClock();
    const states = new KeyStates(clock);
    const live = states.of("live");
    live.token = { token: "t", usableUntilMs: clock.now() + 60_000, expiredAtMs: clock.now() + 61_000 };
    states.of("basic").basicUntilMs = clock.now() + 60_000;
    for (let i = 0; i < 998; i++) states.of(`idle-${String(i)}`);
    expect(states.peek("idle-0")).toBeDefined();
    states.of("one-more"); // the 1,001st: the sweep runs first
    expect(states.peek("idle-0")).toBeUndefined();
    expect(states.peek("idle-997")).toBeUndefined();
    expect(states.peek("live")).toBe(live);
    expect(states.peek("basic")).toBeDefined();
    expect(states.peek("one-more")).toBeDefined();
  });
});
