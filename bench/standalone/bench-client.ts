/**
 * npm run bench:client [-- --profile primary|alternative --transactions 25000 --budget 60]
 *
 * Walks every transaction of the demo customer through lib/fleet-api against a sandbox process with the real
 * request budget, and prints the time taken against the bound the budget sets: ⌈rows / 200⌉ requests at
 * `budget` per minute. Also prints upstream requests per operation. Prints figures; asserts nothing.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";

import { FleetApiClient, RequestBudget, type UpstreamCall } from "@/lib/fleet-api";

const { values } = parseArgs({
  options: {
    profile: { type: "string", default: "primary" },
    transactions: { type: "string", default: "25000" },
    budget: { type: "string", default: "60" },
    port: { type: "string", default: "4097" },
  },
});
const CLI = ["node_modules/tsx/dist/cli.mjs", "sandbox/cli.ts"];
const db = `.data/bench-client-${values.transactions}.db`;
const budget = Number(values.budget);

async function main(): Promise<void> {
  if (!existsSync(db)) console.log(`seeding ${db} with ${values.transactions} transactions…`);
  const seedArgs = existsSync(db) ? [] : ["--transactions", values.transactions];
  const server = spawn(
    process.execPath,
    [
      ...CLI,
      "--db",
      db,
      "--port",
      values.port,
      "--profile",
      values.profile,
      "--budget",
      String(budget),
      "--quiet",
      ...seedArgs,
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    const baseUrl = `http://127.0.0.1:${values.port}/api/v1`;
    for (let i = 0; i < 1500; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${values.port}/healthz`)).ok) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const pairs = JSON.parse(
      execFileSync(process.execPath, [...CLI, "keys", "demo", "--json", "--db", db]).toString(),
    ) as { label: string; key_id: string; secret: string }[];
    const full = pairs.find((p) => p.label === "demo-full");
    if (!full) throw new Error("no demo key");
    const keys = { keyId: full.key_id, secret: full.secret };
    const calls: UpstreamCall[] = [];
    // The client is told the same budget as the sandbox (in the BFF it comes from configuration).
    const client = new FleetApiClient({
      baseUrl,
      budget: new RequestBudget({ budget }),
      onUpstreamCall: (c) => calls.push(c),
    });
    // The budget window starts fresh for this key: the sandbox process was just started.
    const started = performance.now();
    let rows = 0;
    let lastPrint = started;
    for await (const _ of client.iterateTransactions(keys)) {
      rows++;
      if (performance.now() - lastPrint > 15_000) {
        lastPrint = performance.now();
        console.log(`  … ${String(rows)} rows after ${((lastPrint - started) / 1000).toFixed(0)} s`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const pages = calls.filter((c) => c.path === "/transactions" && c.status === 200).length;
    const auths = calls.filter((c) => c.path === "/auth").length;
    const boundSeconds = (Math.ceil(rows / 200) / budget) * 60;
    console.log(`\nprofile ${values.profile}, budget ${String(budget)}/min`);
    console.log(`rows walked            ${String(rows)}`);
    console.log(
      `upstream requests      ${String(calls.length)} (${String(pages)} pages of 200 + ${String(auths)} POST /auth; 429s: ${String(calls.filter((c) => c.status === 429).length)})`,
    );
    console.log(`time                   ${seconds.toFixed(1)} s`);
    console.log(
      `bound                  ${boundSeconds.toFixed(1)} s (⌈${String(rows)}/200⌉ requests at ${String(budget)}/min)`,
    );
    console.log(
      `vs bound               ${((boundSeconds / seconds) * 100).toFixed(0)} % (goal ≥ 95 %; above 100 % because the first window's budget is spent at once)`,
    );
    console.log(`rows per minute        ${Math.round((rows / seconds) * 60).toLocaleString("en-US")}`);
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
