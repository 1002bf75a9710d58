import { afterEach, describe, expect, it, vi } from "vitest";

import { requestBff } from "./fetch-json";

// Issue 26 (mobile TBT): a page's queries all start in the one task that runs React's effects, and each browser
// fetch() call is costly on a phone; requestBff starts each request in a task of its own. A stand-in for fetch
// records when it is called (no server is needed to see when a request starts).

afterEach(() => {
  vi.unstubAllGlobals();
});

function recordingFetch(calls: string[]) {
  return vi.fn((url: string) => {
    calls.push(`fetch ${url}`);
    return Promise.resolve(new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } }));
  });
}

const microtasks = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};
const nextMacrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("requestBff", () => {
  it("does not call fetch in the task that asked (nor in its microtasks), but right after it", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", recordingFetch(calls));
    const first = requestBff("/api/account");
    const second = requestBff("/api/summary");
    await microtasks();
    calls.push("asking task done");
    await Promise.all([first, second]);
    expect(calls).toEqual(["asking task done", "fetch /api/account", "fetch /api/summary"]);
  });

  it("a query cancelled before its turn never calls fetch and rejects with the abort as is", async () => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", recordingFetch(calls));
    const controller = new AbortController();
    const request = requestBff("/api/exceptions", { signal: controller.signal });
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: "AbortError" });
    await nextMacrotask();
    expect(calls).toEqual([]);
  });
});
