import { describe, expect, it } from "vitest";
import { META, readAll, rowSource, tick } from "./fixtures/rows";
import { exportTransactions, type ExportFormat } from "./index";

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
