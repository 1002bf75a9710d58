import { EventEmitter } from "node:events";

import { describe, expect, it } from "vitest";

import { fromList } from "./fixtures/rows";
import { settle, waitFor } from "./production";
import { ExportRun } from "./run";

describe("settle", () => {
  it("turns a writer's work into null (whole) or the failure, never a rejection", async () => {
    const failure = new Error("zip failed");
    expect(await settle(Promise.resolve())).toBeNull();
    expect(await settle(Promise.reject(failure))).toEqual({ error: failure });
  });
});

describe("waitFor", () => {
  it("resolves on the event, and rejects with an AbortError once the run stops first", async () => {
    const emitter = new EventEmitter();
    const run = new ExportRun(fromList([]).rows, undefined);
    const drained = waitFor(emitter, "drain", run);
    emitter.emit("drain");
    await expect(drained).resolves.toBeUndefined();
    const stopped = waitFor(emitter, "drain", run);
    run.stop("cancelled");
    await expect(stopped).rejects.toMatchObject({ name: "AbortError" });
    expect(emitter.listenerCount("drain")).toBe(0);
  });
});
