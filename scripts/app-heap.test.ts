import { describe, expect, it } from "vitest";

import { APP_MAX_OLD_SPACE_MB, appNodeArgs } from "./app-heap";

describe("appNodeArgs", () => {
  it("caps the app's old generation at 1 GB", () => {
    expect(APP_MAX_OLD_SPACE_MB).toBe(1024);
    expect(appNodeArgs({})).toEqual(["--max-old-space-size=1024"]);
    expect(appNodeArgs({ NODE_OPTIONS: "--enable-source-maps" })).toEqual(["--max-old-space-size=1024"]);
  });

  it("adds nothing when the operator sets the old generation's size in NODE_OPTIONS", () => {
    expect(appNodeArgs({ NODE_OPTIONS: "--max-old-space-size=2048" })).toEqual([]);
    expect(appNodeArgs({ NODE_OPTIONS: "--enable-source-maps --max-old-space-size 512" })).toEqual([]);
  });
});
