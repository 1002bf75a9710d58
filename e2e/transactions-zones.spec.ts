// The transactions journey in time zones (issue 13, item 6): the browser's zone by default, one zone for the filters
// and the times; and the zone list's load time (issue 14, item 7).
import { bffTotal, expect, expectLoaded, test } from "./fixtures";
import { openList, rangeSummary, rows } from "./transactions-page";

/** The calendar day an instant falls on in a zone. */
function dayIn(zone: string, instant: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
}

const ZONES = [
  { zone: "America/Los_Angeles", label: /\b(PST|PDT)$/ },
  { zone: "Asia/Tokyo", label: /\bUTC\+9$/ },
] as const;

for (const { zone, label } of ZONES) {
  test.describe(`from ${zone}`, () => {
    test.use({ timezoneId: zone });

    test("a day's filter and every time on screen are in the browser's zone, labelled", async ({
      loggedInPage: page,
    }) => {
      // Three days ago there, a whole day of the demo's history.
      const day = dayIn(zone, new Date(Date.now() - 3 * 86_400_000));
      await openList(page, `?range=custom&from=${day}&to=${day}`);
      await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue(zone);
      await expect(page.getByTestId("date-hint")).toContainText(`Days in ${zone}`);
      await expect(page).toHaveURL((url) => url.searchParams.get("tz") === zone);

      const times = rows(page).locator("time");
      const texts = await times.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).toMatch(label);
      const instants = (await times.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime") ?? ""))).map(
        (iso) => new Date(iso),
      );
      const total = await bffTotal(page, `&from=${day}&to=${day}&tz=${encodeURIComponent(zone)}`);
      await expect(rangeSummary(page)).toContainText(`of ${total.toLocaleString("en-US")}`);
      // The zone's day exactly: sent as instants (alternative), or its covering UTC days trimmed by the BFF (primary).
      for (const at of instants) expect(dayIn(zone, at)).toBe(day);
    });

    test("the zone can be changed: in the URL, remembered for the next visit, and the times follow", async ({
      loggedInPage: page,
    }) => {
      await openList(page, "?range=7d");
      await page.getByRole("combobox", { name: "Time zone" }).selectOption("UTC");
      await expect(page).toHaveURL((url) => url.searchParams.get("tz") === "UTC");
      await expectLoaded(page);
      await expect(page.getByTestId("date-hint")).toContainText("Days in UTC");
      for (const text of await rows(page).locator("time").allTextContents()) expect(text).toMatch(/\bUTC$/);

      await openList(page);
      await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue("UTC");
      await page.getByRole("combobox", { name: "Time zone" }).selectOption(zone);
      await expect(rows(page).first().locator("time")).toHaveText(label);
    });

    test("a transaction's page loaded directly shows its times in the zone, without a hydration error", async ({
      loggedInPage: page,
    }) => {
      // The server's HTML carries the transaction (issue 26) with its times in UTC; the browser's zone follows.
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const list = await page.request.get("/api/transactions?limit=1");
      const [first] = ((await list.json()) as { items: { id: string }[] }).items;
      if (first === undefined) throw new Error("the sandbox has no transaction");
      await page.goto(`/transactions/${encodeURIComponent(first.id)}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Transaction ");
      await expect(page.locator("main time").first()).toHaveText(label);
      expect(errors.filter((text) => /hydrat|#418|#425|did not match/i.test(text))).toEqual([]);
    });

    test("the export's days and file name follow the zone", async ({ loggedInPage: page }) => {
      const day = dayIn(zone, new Date(Date.now() - 3 * 86_400_000));
      await openList(page, `?range=custom&from=${day}&to=${day}`);
      const downloadPromise = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export CSV" }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toContain(`${day}_to_${day}_${zone.replace("/", "-")}`);
      const total = await bffTotal(page, `&from=${day}&to=${day}&tz=${encodeURIComponent(zone)}`);
      await expect(page.getByText(`Exported ${total.toLocaleString("en-US")} row`)).toBeVisible();
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Load time (issue 14, item 7): the zone list is built when it is needed, and the first render matches the server's.

test("the zone select lists the common zones until it gets focus, then every zone, and one can be chosen by keyboard", async ({
  loggedInPage: page,
}) => {
  await openList(page);
  const select = page.getByRole("combobox", { name: "Time zone" });
  const everyZone = select.locator('optgroup[label="Every zone"]');
  expect(await select.locator("option").count()).toBeLessThanOrEqual(10);
  await expect(everyZone).toHaveCount(0);

  // Keyboard only: Tab from the search field into the select builds the whole list.
  await page.getByRole("searchbox", { name: "Search" }).focus();
  await page.keyboard.press("Tab");
  await expect(select).toBeFocused();
  const zoneCount = await page.evaluate(() => Intl.supportedValuesOf("timeZone").length);
  await expect(everyZone.locator("option")).not.toHaveCount(0);
  expect(await select.locator("option").count()).toBeGreaterThanOrEqual(zoneCount);

  // End picks the last zone of "Every zone" (a closed select changes its value on the key, as Chromium does).
  const last = (await everyZone.locator("option").last().getAttribute("value")) ?? "";
  expect(last).not.toBe("");
  await page.keyboard.press("End");
  await expect(page).toHaveURL((url) => url.searchParams.get("tz") === last);
  await expect(select).toHaveValue(last);
  await expect(page.getByTestId("date-hint")).toContainText(`Days in ${last}`);
});

test.describe("from America/Los_Angeles, the first load", () => {
  test.use({ timezoneId: "America/Los_Angeles" });

  test("hydrates without a mismatch, in the browser's zone, asking for the list in that zone only", async ({
    loggedInPage: page,
  }) => {
    const zone = "America/Los_Angeles";
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => {
      problems.push(error.message);
    });
    const listZones = new Set<string>();
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/transactions") listZones.add(url.searchParams.get("tz") ?? "");
    });

    await openList(page, "?range=7d");
    await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue(zone);
    await expect(page.getByTestId("date-hint")).toContainText(`Days in ${zone}`);
    await expect(page).toHaveURL((url) => url.searchParams.get("tz") === zone);
    expect(problems.filter((text) => /hydrat|#418/i.test(text))).toEqual([]);
    expect([...listZones]).toEqual([zone]);
  });
});
