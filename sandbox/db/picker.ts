/** Weighted picker with a precomputed cumulative table (O(log n) per draw, one rng.next() per draw). */
import type { Rng } from "./rng";

export class Picker<T> {
  private readonly cumulative: number[] = [];
  private readonly items: T[] = [];
  private total = 0;
  constructor(entries: Iterable<readonly [T, number]>) {
    for (const [item, weight] of entries) {
      if (weight <= 0) continue;
      this.total += weight;
      this.items.push(item);
      this.cumulative.push(this.total);
    }
  }
  get size(): number {
    return this.items.length;
  }
  pick(rng: Rng): T {
    const r = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] ?? 0) > r) hi = mid;
      else lo = mid + 1;
    }
    const item = this.items[lo];
    if (item === undefined) throw new Error("Picker is empty");
    return item;
  }
}
