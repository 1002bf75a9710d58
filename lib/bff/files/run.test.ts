import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";

import { fromList, makeTransactions, rowSource } from "./fixtures/rows";
import { EXPORT_RECENT_IDS, ExportRun } from "./run";

async function drain(run: ExportRun): Promise<string[]> {
  const ids: string[] = [];
  for (let row = await run.next(); row !== null; row = await run.next()) {
    ids.push(row.id);
    run.rowWritten();
  }
  return ids;
}

describe("ExportRun", () => {
  it("delivers each id once, in the order first seen, and counts the rows written", async () => {
    const items = makeTransactions(30);
    const progress: number[] = [];
    const run = new ExportRun(fromList([...items.slice(0, 20), ...items.slice(10, 15), ...items.slice(20)]).rows, (n) =>
      progress.push(n),
    );
    expect(await drain(run)).toEqual(items.map((t) => t.id));
    expect(run.rowsDone).toBe(30);
    expect(progress).toEqual(items.map((_, i) => i + 1));
  });

  it("remembers only the last EXPORT_RECENT_IDS ids (bounded memory): an older repeat comes through", async () => {
    const items = makeTransactions(EXPORT_RECENT_IDS + 1);
    const first = items[0];
    if (first === undefined) throw new Error("no rows");
    const ids = await drain(new ExportRun(fromList([...items, first]).rows, undefined));
    expect(ids).toHaveLength(EXPORT_RECENT_IDS + 2);
    expect(ids.at(-1)).toBe(first.id);
  });

  it("stops: no more rows, the upstream walk is returned once, and the stop signal carries the reason", async () => {
    const { rows, stats } = rowSource(100);
    const run = new ExportRun(rows, undefined);
    await run.next();
    run.stop("client went away");
    run.stop("again");
    expect(run.isStopped()).toBe(true);
    expect(run.stopSignal.reason).toBe("client went away");
    expect(stats.returned).toBe(true);
    const pulls = stats.pulls;
    expect(await run.next()).toBeNull();
    expect(stats.pulls).toBe(pulls);
  });

  it("does not return() a walk that failed or finished by itself", async () => {
    let returns = 0;
    const failing: AsyncIterable<Transaction> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error("upstream down")),
        return: () => {
          returns++;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const run = new ExportRun(failing, undefined);
    await expect(run.next()).rejects.toThrow("upstream down");
    run.stop("after the failure");
    const { rows, stats } = rowSource(2);
    const finished = new ExportRun(rows, undefined);
    await drain(finished);
    finished.closeRows();
    expect([returns, stats.returned]).toEqual([0, false]);
  });
});
