"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * A value this browser remembers across visits (localStorage, JSON), read through `useSyncExternalStore`: the server
 * and the first render use the fallback, the browser then applies what it remembered. What is read is checked by the
 * store's `parse` (unreadable JSON or a value it refuses gives the fallback); a storage that is full or disabled keeps
 * the value for this page load; every hook on the same key, in this tab or another (the `storage` event), sees a write.
 *
 * `parse` is a plain function, not a zod schema: zod stays out of browser code (31 kB gzip and a CSP violation, see
 * ARCHITECTURE.md), and the truck already has its one rule with sentences (route-truck.ts's readTruckDraft).
 */

/** What the store needs of the browser; tests pass their own (Node has no localStorage). */
export interface LocalStoreEnvironment {
  /** The storage, or null when the browser refuses it (reading `window.localStorage` can throw). */
  storage: () => Pick<Storage, "getItem" | "setItem"> | null;
  /** Where other tabs' writes arrive as `storage` events. */
  events: Pick<EventTarget, "addEventListener" | "removeEventListener">;
}

export interface LocalStoreOptions<T> {
  key: string;
  /** The value as read from JSON, or null when it is not one this store keeps. */
  parse: (value: unknown) => T | null;
  fallback: T;
  environment?: LocalStoreEnvironment;
}

export interface LocalStore<T> {
  subscribe: (listener: () => void) => () => void;
  /** The remembered value (the same object until it changes), or the fallback. */
  read: () => T;
  write: (value: T) => void;
  readonly fallback: T;
}

const browserEnvironment: LocalStoreEnvironment = {
  storage: () => window.localStorage,
  get events() {
    return window;
  },
};

/** Per key, shared by every store of that key: its listeners, and a write the storage refused (kept in memory). */
interface KeyState {
  listeners: Set<() => void>;
  unsaved: string | null;
}
const keys = new Map<string, KeyState>();

function stateOf(key: string): KeyState {
  let state = keys.get(key);
  if (state === undefined) {
    state = { listeners: new Set(), unsaved: null };
    keys.set(key, state);
  }
  return state;
}

function notify(state: KeyState): void {
  for (const listener of [...state.listeners]) listener();
}

export function createLocalStore<T>({
  key,
  parse,
  fallback,
  environment = browserEnvironment,
}: LocalStoreOptions<T>): LocalStore<T> {
  const state = stateOf(key);
  let cache: { raw: string | null; value: T } = { raw: null, value: fallback };

  const readRaw = (): string | null => {
    if (state.unsaved !== null) return state.unsaved;
    try {
      return environment.storage()?.getItem(key) ?? null;
    } catch {
      // Storage disabled (privacy settings): nothing remembered.
      return null;
    }
  };

  const decode = (raw: string | null): T => {
    if (raw === null) return fallback;
    try {
      return parse(JSON.parse(raw)) ?? fallback;
    } catch {
      return fallback;
    }
  };

  return {
    fallback,
    subscribe(listener) {
      const onStorage = (event: Event) => {
        const changed = (event as Partial<StorageEvent>).key;
        // null: another tab cleared the whole storage.
        if (changed !== key && changed !== null) return;
        // Another tab saved (or removed) it: its value wins over one this tab could not save.
        state.unsaved = null;
        listener();
      };
      state.listeners.add(listener);
      environment.events.addEventListener("storage", onStorage);
      return () => {
        state.listeners.delete(listener);
        environment.events.removeEventListener("storage", onStorage);
      };
    },
    read() {
      const raw = readRaw();
      if (raw !== cache.raw) cache = { raw, value: decode(raw) };
      return cache.value;
    },
    write(value) {
      const raw = JSON.stringify(value);
      try {
        const storage = environment.storage();
        if (storage === null) throw new Error("no storage");
        storage.setItem(key, raw);
        state.unsaved = null;
      } catch {
        // Full (QuotaExceededError) or disabled: remembered for this page load only.
        state.unsaved = raw;
      }
      notify(state);
    },
  };
}

/** The store's value and how to change it; the server renders the fallback. */
export function useLocalStore<T>(store: LocalStore<T>): [T, (value: T) => void] {
  const value = useSyncExternalStore(store.subscribe, store.read, () => store.fallback);
  const write = useCallback(
    (next: T) => {
      store.write(next);
    },
    [store],
  );
  return [value, write];
}
