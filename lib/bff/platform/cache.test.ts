import { describe, expect, it } from "vitest";

import { cacheKey, TtlCache } from "./cache";

/** A load the test finishes by hand, recording the signal it ran with. */
function manualLoad<T>() {
  let finish: (value: T) => void = () => undefined;
  const calls: AbortSignal[] = [];
  const load = (signal: AbortSignal) => {
    calls.push(signal);
    return new Promise<T>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener(
        "abort",
        () => {
          reject(new Error("load aborted"));
        },
        { once: true },
      );
    });
  };
  return {
    load,
    calls,
    finish: (value: T) => {
      finish(value);
    },
  };
}

const outcome = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error as Error }),
  );

describe("TtlCache single flight", () => {
  it("keeps the shared load running for the other waiters when the first caller cancels", async () => {
    const cache = new TtlCache();
    const { load, calls, finish } = manualLoad<string>();
    const first = new AbortController();
    const second = new AbortController();
    const a = outcome(cache.get("k", 1000, load, first.signal));
    const b = outcome(cache.get("k", 1000, load, second.signal));
    expect(calls).toHaveLength(1);
    first.abort();
    expect(await a).toMatchObject({ error: { code: "aborted", message: "The request was cancelled." } });
    expect(calls[0]?.aborted).toBe(false); // the load runs on for the second caller
    finish("data");
    expect(await b).toEqual({ value: "data" });
    expect(calls).toHaveLength(1);
    // And it was cached for the next caller.
    expect(await cache.get("k", 1000, () => Promise.reject(new Error("not called")))).toBe("data");
  });

  it("aborts the shared load when its last waiter has gone, and a later caller starts afresh", async () => {
    const cache = new TtlCache();
    const { load, calls } = manualLoad<string>();
    const first = new AbortController();
    const second = new AbortController();
    const a = outcome(cache.get("k", 1000, load, first.signal));
    const b = outcome(cache.get("k", 1000, load, second.signal));
    first.abort();
    await a;
    expect(cache.waiting("k")).toBe(1);
    second.abort();
    expect(await b).toMatchObject({ error: { code: "aborted" } });
    expect(calls[0]?.aborted).toBe(true);
    expect(cache.waiting("k")).toBe(0);
    const fresh = manualLoad<string>();
    const c = cache.get("k", 1000, fresh.load);
    expect(fresh.calls).toHaveLength(1);
    fresh.finish("again");
    expect(await c).toBe("again");
  });

  it("never aborts a load that a caller without a signal waits for", async () => {
    const cache = new TtlCache();
    const { load, calls, finish } = manualLoad<number>();
    const withSignal = new AbortController();
    const a = outcome(cache.get("k", 0, load, withSignal.signal));
    const b = cache.get("k", 0, load);
    withSignal.abort();
    await a;
    expect(calls[0]?.aborted).toBe(false);
    finish(7);
    expect(await b).toBe(7);
  });

  it("refuses at once a caller whose signal is already aborted, without loading", async () => {
    const cache = new TtlCache();
    const { load, calls } = manualLoad<string>();
    const gone = new AbortController();
    gone.abort();
    expect(await outcome(cache.get("k", 1000, load, gone.signal))).toMatchObject({ error: { code: "aborted" } });
    expect(calls).toHaveLength(0);
  });

  it("hands a failure of the shared load to every waiter and caches nothing", async () => {
    const cache = new TtlCache();
    let rejectLoad: (error: Error) => void = () => undefined;
    const load = () =>
      new Promise<string>((_resolve, reject) => {
        rejectLoad = reject;
      });
    const a = outcome(cache.get("k", 1000, load, new AbortController().signal));
    const b = outcome(cache.get("k", 1000, load));
    rejectLoad(new Error("upstream down"));
    expect(await a).toMatchObject({ error: { message: "upstream down" } });
    expect(await b).toMatchObject({ error: { message: "upstream down" } });
    expect(cache.peek("k")).toBeUndefined();
  });
});

describe("cacheKey (the one builder of cache keys)", () => {
  it("starts with the credential hash, so forgetting a customer forgets every entry of theirs", () => {
    const cache = new TtlCache();
    const a = cacheKey("hashA", "transactions", { page: 1, status: "completed" });
    expect(a).toBe('hashA:transactions:{"page":1,"status":"completed"}');
    expect(cacheKey("hashA", "account")).toBe("hashA:account");
    expect(cacheKey("hashA", "location", "st-1")).toBe("hashA:location:st-1");
    const load = () => Promise.resolve(1);
    return Promise.all([cache.get(a, 60_000, load), cache.get(cacheKey("hashB", "account"), 60_000, load)]).then(() => {
      cache.forget("hashA");
      expect(cache.peek(a)).toBeUndefined();
      expect(cache.peek(cacheKey("hashB", "account"))).toBe(1);
    });
  });
});
