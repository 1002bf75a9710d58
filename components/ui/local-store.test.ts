import { describe, expect, it } from "vitest";

import { createLocalStore, type LocalStoreEnvironment } from "./local-store";

/**
 * Node has no localStorage (nor a browser to fill one up), so these tests give the store a Storage of their own: a Map
 * that can be made full (setItem throws QuotaExceededError, as browsers do) or disabled (every call throws
 * SecurityError, as with blocked site data). The `storage` events other tabs cause are dispatched on an EventTarget.
 */
class TestStorage {
  readonly items = new Map<string, string>();
  mode: "ok" | "full" | "disabled" = "ok";

  getItem(key: string): string | null {
    if (this.mode === "disabled") throw new DOMException("The operation is insecure.", "SecurityError");
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    if (this.mode === "disabled") throw new DOMException("The operation is insecure.", "SecurityError");
    if (this.mode === "full") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    this.items.set(key, value);
  }
}

interface Point {
  x: number;
}
const ORIGIN: Point = { x: 0 };
const parsePoint = (value: unknown): Point | null =>
  typeof value === "object" && value !== null && typeof (value as { x?: unknown }).x === "number"
    ? { x: (value as { x: number }).x }
    : null;

let keyCount = 0;
function setup(storage = new TestStorage()) {
  const events = new EventTarget();
  const environment: LocalStoreEnvironment = { storage: () => storage, events };
  // A key per test: the store keeps per-key state for the page's lifetime.
  keyCount += 1;
  const key = `test:point:${String(keyCount)}`;
  const make = () => createLocalStore({ key, parse: parsePoint, fallback: ORIGIN, environment });
  /** What another tab's write looks like here: the storage changed, then a `storage` event names the key. */
  const otherTabWrites = (raw: string) => {
    storage.items.set(key, raw);
    events.dispatchEvent(Object.assign(new Event("storage"), { key }));
  };
  return { storage, events, key, make, otherTabWrites };
}

describe("createLocalStore (issue 27: one localStorage store for the truck and the columns)", () => {
  it("reads the fallback when nothing is stored, and a stored value back", () => {
    const { storage, key, make } = setup();
    const store = make();
    expect(store.read()).toBe(ORIGIN);
    store.write({ x: 3 });
    expect(storage.items.get(key)).toBe('{"x":3}');
    expect(make().read()).toEqual({ x: 3 });
  });

  it("reads the fallback from bad JSON and from a value the parser refuses", () => {
    const { storage, key, make } = setup();
    storage.items.set(key, "{not json");
    expect(make().read()).toBe(ORIGIN);
    storage.items.set(key, '{"x":"three"}');
    expect(make().read()).toBe(ORIGIN);
    storage.items.set(key, "null");
    expect(make().read()).toBe(ORIGIN);
  });

  it("returns the same object until the stored text changes (useSyncExternalStore needs a stable snapshot)", () => {
    const { make } = setup();
    const store = make();
    store.write({ x: 1 });
    const first = store.read();
    expect(store.read()).toBe(first);
    store.write({ x: 2 });
    expect(store.read()).not.toBe(first);
  });

  it("keeps a write that a full storage refused for this page load, over the older stored value", () => {
    const { storage, key, make } = setup();
    const store = make();
    store.write({ x: 1 });
    storage.mode = "full";
    expect(() => {
      store.write({ x: 2 });
    }).not.toThrow();
    expect(store.read()).toEqual({ x: 2 });
    // Nothing was saved: the next visit reads the older value.
    expect(storage.items.get(key)).toBe('{"x":1}');
  });

  it("works without storage (disabled by privacy settings): fallback first, then this page load's writes", () => {
    const storage = new TestStorage();
    storage.mode = "disabled";
    const { make } = setup(storage);
    const store = make();
    expect(store.read()).toBe(ORIGIN);
    store.write({ x: 5 });
    expect(store.read()).toEqual({ x: 5 });
  });

  it("tells every hook on the same key about a write, from this tab or another", () => {
    const { make, otherTabWrites } = setup();
    const [a, b] = [make(), make()];
    const heard: string[] = [];
    const stopA = a.subscribe(() => heard.push(`a ${String(a.read().x)}`));
    const stopB = b.subscribe(() => heard.push(`b ${String(b.read().x)}`));
    a.write({ x: 7 });
    expect(heard).toEqual(["a 7", "b 7"]);
    stopA();
    otherTabWrites('{"x":8}');
    expect(heard).toEqual(["a 7", "b 7", "b 8"]);
    stopB();
    otherTabWrites('{"x":9}');
    expect(heard).toHaveLength(3);
  });

  it("takes another tab's value over one this tab could not save", () => {
    const { storage, make, otherTabWrites } = setup();
    const store = make();
    storage.mode = "full";
    store.write({ x: 1 });
    const stop = store.subscribe(() => undefined);
    storage.mode = "ok";
    otherTabWrites('{"x":4}');
    expect(store.read()).toEqual({ x: 4 });
    stop();
  });

  it("ignores other keys' storage events", () => {
    const { make, storage, events } = setup();
    const store = make();
    let calls = 0;
    const stop = store.subscribe(() => (calls += 1));
    storage.items.set("another", "1");
    events.dispatchEvent(Object.assign(new Event("storage"), { key: "another" }));
    expect(calls).toBe(0);
    stop();
  });
});
