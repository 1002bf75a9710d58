import { describe, expect, it } from "vitest";

import { exportProgress, MAX_PER_KEY, MAX_PER_SESSION, trackExport } from "./export-progress";

describe("export progress", () => {
  it("one session starting many exports evicts only its own oldest, never another user's progress", () => {
    const victim = trackExport("sid-victim", "key-victim", "victim-export", 500);
    victim.row(120);
    // Far more than the store's whole bound once held (1,000), from one session of one key.
    for (let i = 0; i < 1_200; i++) trackExport("sid-noisy", "key-noisy", `noisy-${String(i)}`, 10).finish("done");
    expect(exportProgress("sid-victim", "victim-export")).toMatchObject({
      state: "running",
      rowsDone: 120,
      expectedRows: 500,
    });
    // The noisy session keeps its newest entries only.
    expect(exportProgress("sid-noisy", "noisy-1199")).toMatchObject({ state: "done" });
    expect(exportProgress("sid-noisy", `noisy-${String(1_199 - MAX_PER_SESSION)}`)).toBeUndefined();
  });

  it("many sessions of one key share the key's bound, so another key's progress stays", () => {
    trackExport("sid-other", "key-other", "other-export", 5).finish("done");
    for (let s = 0; s < 200; s++)
      for (let i = 0; i < 3; i++) trackExport(`sid-many-${String(s)}`, "key-many", `e-${String(i)}`, 1).finish("done");
    expect(exportProgress("sid-other", "other-export")).toMatchObject({ state: "done" });
    const kept = Array.from(
      { length: 200 },
      (_, s) => [0, 1, 2].filter((i) => exportProgress(`sid-many-${String(s)}`, `e-${String(i)}`) !== undefined).length,
    ).reduce((a, b) => a + b, 0);
    expect(kept).toBe(MAX_PER_KEY);
  });

  it("a session over its bound drops its finished entries before a running one", () => {
    const running = trackExport("sid-mixed", "key-mixed", "long-one", 1_000);
    running.row(10);
    for (let i = 0; i < MAX_PER_SESSION + 5; i++)
      trackExport("sid-mixed", "key-mixed", `short-${String(i)}`, 1).finish("done");
    expect(exportProgress("sid-mixed", "long-one")).toMatchObject({ state: "running" });
  });
});
