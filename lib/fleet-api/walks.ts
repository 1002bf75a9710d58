import "server-only";

import type { Page, Transaction } from "@/lib/model";

import type { TransactionWalkOptions, WalkOptions } from "./client-options";
import { RecentIds } from "./recent-ids";

/** Every item of a paged list, page after page until the reply's last one, deduplicated by id. */
export async function walkAll<T extends { id: string }>(
  fetchPage: (page: number) => Promise<Page<T>>,
  options: WalkOptions,
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const result = await fetchPage(page);
    for (const item of result.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
    options.onProgress?.({
      pagesDone: page,
      pages: result.pages,
      total: result.total,
      delivered: seen.size,
      remembered: seen.size,
    });
    if (result.items.length === 0 || page >= result.pages) return out;
  }
}

/**
 * Every transaction of the pages `fetchPage` gives, newest first. New transactions arriving during a long walk shift
 * later pages; items are deduplicated by id so none is delivered twice, and the walk goes on until the reply's last
 * page so none is lost.
 *
 * The pages are offsets into a list that moves: an item delivered earlier comes back on a later page only when
 * items were inserted ahead of it after it was delivered, and then among the last ones delivered. So the walk
 * remembers only the latest ids, two pages' worth plus as many as the upstream's `total` grew by since the walk
 * began (the insertions it shows), not every id delivered: memory follows the page size and what arrives during
 * the walk, never the number of rows. (Insertions hidden from `total` by as many deletions could still let a
 * repeat through beyond that window; a repeat, never a loss.)
 */
export async function* walkTransactions(
  fetchPage: (page: number) => Promise<Page<Transaction>>,
  pageSize: number,
  options: TransactionWalkOptions,
): AsyncGenerator<Transaction> {
  const recent = new RecentIds(2 * pageSize);
  let firstTotal: number | undefined;
  let delivered = 0;
  let pagesDone = 0;
  for (let page = 1; ; page++) {
    const result = page === 1 && options.firstPage !== undefined ? options.firstPage : await fetchPage(page);
    firstTotal ??= result.total;
    recent.growTo(2 * Math.max(pageSize, result.items.length) + Math.max(0, result.total - firstTotal));
    for (const item of result.items) {
      if (recent.has(item.id)) continue;
      recent.add(item.id);
      delivered++;
      yield item;
    }
    pagesDone++;
    options.onProgress?.({ pagesDone, pages: result.pages, total: result.total, delivered, remembered: recent.size });
    // The reply's `pages` decides (it grows when new transactions arrive); a short page does not, in case the
    // upstream caps `limit` below what we asked.
    if (result.items.length === 0 || page >= result.pages) return;
  }
}
