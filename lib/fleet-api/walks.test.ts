import { describe, expect, it } from "vitest";

import type { Page, Transaction } from "@/lib/model";

import type { WalkProgress } from "./client-options";
import { walkAll, walkTransactions } from "./walks";

const pageOf = <T>(items: T[], page: number, pages: number, total: number): Page<T> => ({
  items,
  page,
  limit: 2,
  pages,
  total,
});
const tx = (id: string) => ({ id }) as Transaction;

describe("walkAll", () => {
  it("collects every page once, dropping repeats, and reports progress per page", async () => {
    const pages = [
      pageOf([{ id: "a" }, { id: "b" }], 1, 3, 5),
      pageOf([{ id: "b" }, { id: "c" }], 2, 3, 5),
      pageOf([{ id: "d" }], 3, 3, 5),
    ];
    const progress: WalkProgress[] = [];
    const asked: number[] = [];
    const items = await walkAll(
      (page) => {
        asked.push(page);
        return Promise.resolve(pages[page - 1] ?? pageOf([], page, 3, 5));
      },
      { onProgress: (p) => progress.push(p) },
    );
    expect(items.map((i) => i.id)).toEqual(["a", "b", "c", "d"]);
    expect(asked).toEqual([1, 2, 3]);
    expect(progress.at(-1)).toEqual({ pagesDone: 3, pages: 3, total: 5, delivered: 4, remembered: 4 });
  });

  it("stops at an empty page even when the reply promised more", async () => {
    const items = await walkAll((page) => Promise.resolve(pageOf<{ id: string }>([], page, 9, 18)), {});
    expect(items).toEqual([]);
  });
});

describe("walkTransactions", () => {
  it("uses a first page given to it, walks on by the reply's pages, and delivers each id once", async () => {
    const asked: number[] = [];
    const later = [pageOf([tx("b"), tx("c")], 2, 3, 5), pageOf([tx("c"), tx("d")], 3, 3, 5)];
    const ids: string[] = [];
    const walk = walkTransactions(
      (page) => {
        asked.push(page);
        return Promise.resolve(later[page - 2] ?? pageOf([], page, 3, 5));
      },
      2,
      { firstPage: pageOf([tx("a"), tx("b")], 1, 3, 5) },
    );
    for await (const t of walk) ids.push(t.id);
    expect(asked).toEqual([2, 3]);
    expect(ids).toEqual(["a", "b", "c", "d"]);
  });

  it("remembers two pages of ids plus the growth of the total, not every id", async () => {
    const progress: WalkProgress[] = [];
    const walk = walkTransactions(
      (page) =>
        Promise.resolve(
          pageOf([tx(`p${String(page)}-1`), tx(`p${String(page)}-2`)], page, 10, 20 + (page === 10 ? 3 : 0)),
        ),
      2,
      { onProgress: (p) => progress.push(p) },
    );
    let delivered = 0;
    for await (const _ of walk) delivered++;
    expect(delivered).toBe(20);
    expect(Math.max(...progress.map((p) => p.remembered))).toBeLessThanOrEqual(2 * 2 + 3);
  });
});
