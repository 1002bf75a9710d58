import { PassThrough } from "node:stream";

import { describe, expect, it } from "vitest";

import { fromList, META, readAll, rowSource, tick } from "./fixtures/rows";
import { type ExportFormat, exportTransactions } from "./index";
import { ExportRun } from "./run";
import { readChunk, toWebStream } from "./web-stream";

describe.each(["csv", "xlsx"] as const)("%s stream control", (format: ExportFormat) => {
  const TOTAL = 100_000;

  it("pulls nothing before the first read and stays a bounded distance ahead of a slow reader", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const stream = exportTransactions(format, rows, META);
    await tick(20);
    expect(stats.pulls).toBe(0);
    const reader = stream.getReader();
    await reader.read();
    await tick(200); // the producer runs until back-pressure stops it
    const ahead = stats.pulls;
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(20_000);
    await reader.cancel();
  });

  it("stops the upstream walk when the reader cancels", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const reader = exportTransactions(format, rows, META).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await reader.cancel("client went away");
    expect(stats.returned).toBe(true);
    const pullsAtCancel = stats.pulls;
    await tick(100);
    expect(stats.pulls).toBe(pullsAtCancel);
    expect(pullsAtCancel).toBeLessThan(TOTAL);
  });

  it("stops the upstream walk and errors the stream when the signal aborts", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const controller = new AbortController();
    const reader = exportTransactions(format, rows, META, { signal: controller.signal }).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    expect(stats.returned).toBe(true);
    const pullsAtAbort = stats.pulls;
    await tick(100);
    expect(stats.pulls).toBe(pullsAtAbort);
  });

  it("pulls no row at all when the signal is already aborted", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const { error } = await readAll(exportTransactions(format, rows, META, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ name: "AbortError" });
    expect(stats.pulls).toBe(0);
  });
});

describe("readChunk", () => {
  it("hands over chunks of at least 16 KB but the last, then null at the end", async () => {
    const readable = new PassThrough();
    for (let i = 0; i < 40; i++) readable.write(Buffer.alloc(1024, i));
    readable.end();
    const sizes: number[] = [];
    for (let chunk = await readChunk(readable); chunk !== null; chunk = await readChunk(readable))
      sizes.push(chunk.byteLength);
    expect(sizes).toEqual([16 * 1024, 16 * 1024, 8 * 1024]);
  });

  it("rejects with the stream's error", async () => {
    const readable = new PassThrough();
    const failure = new Error("zip failed");
    readable.on("error", () => undefined); // as the writers do (ignoreError): readChunk reports it
    readable.destroy(failure);
    await expect(readChunk(readable)).rejects.toBe(failure);
  });
});

describe("toWebStream", () => {
  it("delivers what a writer wrote before it failed, then errors (a writer that is not fail-fast)", async () => {
    const output = new PassThrough();
    const failure = new Error("rows failed");
    output.end("header\r\n# export incomplete\r\n");
    const run = new ExportRun(fromList([]).rows, undefined);
    const stream = toWebStream(
      run,
      () => ({ output, outcome: Promise.resolve({ error: failure }), failFast: false }),
      undefined,
    );
    const { bytes, error } = await readAll(stream);
    expect(bytes.toString()).toBe("header\r\n# export incomplete\r\n");
    expect(error).toBe(failure);
  });

  it("errors at once when a fail-fast writer fails, and stops the run", async () => {
    const output = new PassThrough();
    const failure = new Error("zip failed");
    const run = new ExportRun(fromList([]).rows, undefined);
    const stream = toWebStream(
      run,
      () => ({ output, outcome: Promise.resolve({ error: failure }), failFast: true }),
      undefined,
    );
    await expect(stream.getReader().read()).rejects.toBe(failure);
    expect(run.isStopped()).toBe(true);
    expect(output.destroyed).toBe(true);
  });
});
