/**
 * A small, fast, seedable PRNG (mulberry32) so two seeds of the same number give byte-identical data.
 * Math.random is never used by the seed.
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** One element chosen by weight (weights need not sum to 1). */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Approximately normal (Irwin–Hall of 4 uniforms), mean 0, sd 1. */
  normal(): number;
  /** A version-4-shaped UUID drawn from this generator (deterministic). */
  uuid(): string;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number): string => {
    let out = "";
    for (let i = 0; i < n; i++) out += Math.floor(next() * 16).toString(16);
    return out;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    pick: (items) => {
      if (items.length === 0) throw new Error("pick() from an empty array");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (items) => {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [item, w] of items) {
        r -= w;
        if (r < 0) return item;
      }
      const last = items[items.length - 1];
      if (!last) throw new Error("weighted() from an empty array");
      return last[0];
    },
    chance: (p) => next() < p,
    normal: () => (next() + next() + next() + next() - 2) * Math.sqrt(3),
    uuid: () => {
      const variant = "89ab"[Math.floor(next() * 4)] ?? "8";
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
  };
  return rng;
}
