import { describe, expect, it } from "vitest";

import { BffError } from "../http/errors";
import { RunningLimit } from "./running-limit";

const limit = () => new RunningLimit({ perSession: 3, perKey: 5, message: (bound, n) => `${bound} ${String(n)}` });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("RunningLimit", () => {
  it("refuses a session's 4th job and a key's 6th with a 429 naming the bound, and frees slots on release", () => {
    const l = limit();
    const a = [l.acquire("s1", "k"), l.acquire("s1", "k"), l.acquire("s1", "k")];
    const fourth = refusal(() => l.acquire("s1", "k"));
    expect(fourth).toBeInstanceOf(BffError);
    expect(fourth).toMatchObject({
      status: 429,
      code: "too_many_running",
      message: "session 3",
      headers: { "Retry-After": "10" },
    });
    const b = [l.acquire("s2", "k"), l.acquire("s2", "k")];
    expect(refusal(() => l.acquire("s3", "k"))).toMatchObject({ code: "too_many_running", message: "key 5" });
    // Another key is not held back by this one.
    expect(
      refusal(() => {
        l.acquire("s4", "other").release();
      }),
    ).toBeUndefined();
    a[0]?.release();
    a[0]?.release(); // idempotent: a second release frees nothing more
    expect(l.running("s1", "k")).toEqual({ session: 2, key: 4 });
    const again = l.acquire("s3", "k");
    expect(refusal(() => l.acquire("s3", "k"))).toMatchObject({ message: "key 5" });
    for (const slot of [...a, ...b, again]) slot.release();
    expect(l.running("s1", "k")).toEqual({ session: 0, key: 0 });
  });

  it("run() frees the slot however the job ends", async () => {
    const l = limit();
    await expect(l.run("s", "k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await l.run("s", "k", () => Promise.resolve(1))).toBe(1);
    expect(l.running("s", "k")).toEqual({ session: 0, key: 0 });
  });
});
