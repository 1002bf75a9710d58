import { describe, expect, it } from "vitest";

import { migratedOnly, mirrorPlacesOfThisFile } from "@/test/mirror-places";

import { mirrorMigrations } from "./migrations";
import { MirrorStore } from "./store";

// A mirror file made by a build whose migrations were merged in another order (0007 from one branch before 0006 from
// another, as happened on main) has a later migration without an earlier one. Kysely refuses that by default
// ("corrupted migrations"), so the dashboard could not open the file at all; it now applies the missing one.

const placeOf = mirrorPlacesOfThisFile("store-gap");

describe.each(["sqlite", "postgres"] as const)("a mirror missing an earlier migration (%s)", (kind) => {
  it("opens, with the missing migration applied and the later one kept", async () => {
    const place = await placeOf(kind);
    const names = Object.keys(await mirrorMigrations(kind).getMigrations()).sort();
    const skipped = names.find((n) => n.startsWith("0006"));
    expect(skipped).toBeDefined();
    await (await migratedOnly(place, (n) => n !== skipped)).destroy();

    const store = await MirrorStore.open(place);
    try {
      const applied = await store.db
        .selectFrom("mirror_migrations" as never)
        .select("name" as never)
        .execute();
      expect(applied.map((r) => (r as { name: string }).name).sort()).toEqual(names);
    } finally {
      await store.close();
    }
  });
});
