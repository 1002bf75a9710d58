import { describe, expect, it } from "vitest";

import { MirrorStore } from "./store";

// Issue 27: the store had two ways to count rows per status, `store.countByStatus(customer, range)` and
// `countsByStatus(store, customer, filter)` (./queries.ts), written apart. One is kept, the function (the list, the
// export and the sync's verification call it; both stores and profiles: ./mirror-queries.test.ts and
// ./mirror-sync.test.ts). This list makes a new method a deliberate change: before adding one, look for a function of
// lib/mirror that does its job already.
describe("the MirrorStore API", () => {
  it("is these methods, with one way to count rows per status", () => {
    const methods = Object.getOwnPropertyNames(MirrorStore.prototype).filter((name) => name !== "constructor");
    expect(methods.sort()).toEqual(
      [
        "allTransactions",
        "close",
        "deleteTransactions",
        "extent",
        "getSyncState",
        "idsIn",
        "migrate",
        "purge",
        "putSyncState",
        "rowCount",
        "transaction",
        "upsertTransactions",
      ].sort(),
    );
    const statics = Object.getOwnPropertyNames(MirrorStore).filter(
      (name) => typeof Reflect.get(MirrorStore, name) === "function",
    );
    expect(statics.sort()).toEqual(["open", "openReadOnly"]);
  });
});
