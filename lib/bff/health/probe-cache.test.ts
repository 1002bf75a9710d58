import { describe, expect, it } from "vitest";

import { VirtualClock } from "@/test/virtual-clock";

import { cachedProbe } from "./probe-cache";

// The /api/healthz probes' cache (issue 24 item 4), on a virtual clock: no timing in the test.
describe("cachedProbe", () => {
  /** A probe whose calls are counted and which answers only when the test says so. */
  const gatedProbe = () => {
    const gates: ((value: string) => void)[] = [];
    const probe = () => new Promise<string>((resolve) => gates.push(resolve));
    return { probe, gates };
  };

  it("runs the probe once for every caller that asks while it runs (single flight)", async () => {
    const clock = new VirtualClock();
    const { probe, gates } = gatedProbe();
    const ask = cachedProbe(probe, { ttlMs: 10_000, now: clock.now });
    const answers = Promise.all(Array.from({ length: 50 }, () => ask()));
    expect(gates).toHaveLength(1);
    gates[0]?.("ok");
    expect(await answers).toEqual(Array.from({ length: 50 }, () => "ok"));
  });

  it("reuses the answer for ttlMs, then asks again", async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const ask = cachedProbe(() => Promise.resolve(`answer ${String(++calls)}`), { ttlMs: 10_000, now: clock.now });
    expect(await ask()).toBe("answer 1");
    clock.ms += 9_999;
    expect(await ask()).toBe("answer 1");
    clock.ms += 1;
    expect(await ask()).toBe("answer 2");
    expect(calls).toBe(2);
  });

  it("keeps no failure: the next caller runs the probe again", async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const ask = cachedProbe(() => (++calls === 1 ? Promise.reject(new Error("refused")) : Promise.resolve("ok")), {
      ttlMs: 10_000,
      now: clock.now,
    });
    await expect(ask()).rejects.toThrow("refused");
    expect(await ask()).toBe("ok");
    expect(calls).toBe(2);
  });
});
