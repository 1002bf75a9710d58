import { beforeAll, describe, expect, it } from "vitest";

import type { DrilldownListReply } from "@/lib/model/insight-drilldowns";
import { TEST_ANCHOR } from "@/sandbox/test/constants";
import { type TestBrowser } from "@/test/browser";
import { useMirrorAppStack } from "@/test/mirror-app-stack";

// Issue 26: the drill-down detail pages over real HTTP against the built app (its mirror on SQLite, synced from the
// sandbox), both profiles. An unknown or malformed key is an HTTP 404 with the not-found page (it was a 200 showing
// "Driver not-a-driver" and "$0.00", and "/cards/abcd" an error with a pointless "Try again"); a known key's page is
// titled by its name, not "Driver".

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = `from=${dateOf(TEST_ANCHOR.getTime() - 89 * DAY_MS)}&to=${dateOf(TEST_ANCHOR.getTime())}`;
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe.each(["primary", "alternative"] as const)("drill-down pages (%s profile)", (profile) => {
  const stack = useMirrorAppStack(profile);
  let b: TestBrowser;
  beforeAll(() => {
    b = stack().browser;
  });

  const firstRow = async (api: string) => {
    const res = await b.fetch(`${api}?${period}`);
    expect(res.status).toBe(200);
    const row = (res.body as DrilldownListReply).rows[0];
    if (row === undefined) throw new Error(`${api} listed nobody`);
    return row;
  };

  it("answers 404 with the not-found page for an unknown or malformed key", async () => {
    for (const [path, heading] of [
      ["/drivers/not-a-driver", "Driver not found"],
      ["/drivers/bad%20id", "Driver not found"],
      ["/trucks/no-such-truck", "Truck not found"],
      ["/cards/abcd", "Card not found"],
      ["/cards/0000", "Card not found"],
    ] as const) {
      const page = await b.fetch(path, { headers: { Accept: "text/html" } });
      expect(page.status, path).toBe(404);
      expect(page.text, path).toContain(heading);
      expect(page.text, path).not.toContain("Could have saved");
    }
  });

  it("titles a known key's page by its name and serves it (200)", async () => {
    const driver = await firstRow("/api/drivers");
    const truck = await firstRow("/api/trucks");
    const card = await firstRow("/api/cards");
    for (const [path, title] of [
      [`/drivers/${encodeURIComponent(driver.key)}`, `${driver.name} · Fleet Fuel Dashboard`],
      [`/trucks/${encodeURIComponent(truck.key)}`, `Truck ${truck.key} · Fleet Fuel Dashboard`],
      [`/cards/${card.key}`, `Card •••• ${card.key} · Fleet Fuel Dashboard`],
    ] as const) {
      const page = await b.fetch(path, { headers: { Accept: "text/html" } });
      expect(page.status, path).toBe(200);
      expect(titleOf(page.text), path).toBe(title);
    }
  });
});
