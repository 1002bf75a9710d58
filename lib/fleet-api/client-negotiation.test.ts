import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { rejection } from "@/test/expect-error";
import type { FaultServer } from "@/test/fault-server";
import type { VirtualClock } from "@/test/virtual-clock";

import type { FleetApiClientOptions } from "./client-options";
import { clientOn, formRejected, KEYS, PAGE, startFaults } from "./fixtures/fault-client";

describe("FleetApiClient under scripted faults: request variants", () => {
  let server: FaultServer;
  let clock: VirtualClock;
  const client = (options: Partial<FleetApiClientOptions> = {}) => clientOn(server, clock, options);
  const gets = (path: string) => server.requests.filter((r) => r.method === "GET" && r.path === path);

  beforeEach(async () => {
    ({ server, clock } = await startFaults());
  });
  afterEach(() => server.close());

  it("negotiates the date form once even when several calls race into the 400", async () => {
    server.fallback("GET /transactions", (r) => (r.query.get("from")?.includes("T") ? PAGE([]) : formRejected("from")));
    const c = client();
    await Promise.all(
      Array.from({ length: 4 }, () => c.listTransactions(KEYS, { from: "2026-05-01", to: "2026-05-31" })),
    );
    await c.listTransactions(KEYS, { from: "2026-05-01" });
    const sent = gets("/transactions").map((r) => r.query.get("from"));
    expect(sent.filter((f) => f === "2026-05-01")).toHaveLength(4); // each racer tried the primary form once
    expect(sent.at(-1)).toBe("2026-05-01T00:00:00Z"); // then remembered
    expect(gets("/transactions").at(-1)?.query.get("to")).toBe(null);
  });

  it("a 400 for the same parameter in both forms is a real input error: reported, and the form is kept", async () => {
    server.fallback("GET /transactions", () => ({
      status: 400,
      body: { ok: false, error: "bad_request", message: "from is too far in the past" },
    }));
    const c = client();
    const error = await rejection(c.listTransactions(KEYS, { from: "2001-01-01" }));
    expect(error.code).toBe("bad_request");
    expect(error.field).toBe("from");
    expect(gets("/transactions").map((r) => r.query.get("from"))).toEqual(["2001-01-01", "2001-01-01T00:00:00Z"]);
    server.fallback("GET /transactions", () => PAGE([]));
    await c.listTransactions(KEYS, { from: "2026-01-01" });
    expect(gets("/transactions").at(-1)?.query.get("from")).toBe("2026-01-01"); // still the primary form
  });

  it("refuses from after to itself, without asking the upstream", async () => {
    const error = await rejection(client().listTransactions(KEYS, { from: "2026-05-02", to: "2026-05-01" }));
    expect(error).toMatchObject({ code: "bad_request", field: "from" });
    expect(server.requests).toHaveLength(0);
  });

  it("switches locations search to q when search is refused, and back when q is", async () => {
    server.fallback("GET /locations", (r) =>
      r.query.has("q")
        ? PAGE([])
        : { status: 400, body: { ok: false, error: "bad_request", message: "Unknown query parameter: search." } },
    );
    const c = client();
    await c.listLocations(KEYS, { search: "pilot" });
    await c.listLocations(KEYS, { search: "loves" });
    expect(gets("/locations").map((r) => [...r.query.keys()].join())).toEqual(["search", "q", "q"]);
  });
});
