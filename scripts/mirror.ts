// `npm run mirror -- status|purge`: the operator's view of the fleet mirror's store (docs/mirror.md).
//
//   status [--json]                       per customer: rows, coverage, last sync, last use, size; the store's size
//   purge --customer CODE                 deletes one customer's mirror (CODE as the account shows it, or the id
//                                         `status` prints); the next sign-in of that customer syncs it again
//   purge --unused                        deletes the mirrors unused for MIRROR_RETENTION_DAYS (what the app does daily)
//   purge --all                           deletes every customer's mirror
//
// It reads the mirror's variables only (MIRROR_PATH, DATABASE_URL, MIRROR_RETENTION_DAYS; .env and .env.local too),
// so it runs without a session secret or an upstream. Exit 0 on success, 2 on bad arguments, 1 on other failures.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";

import nextEnv from "@next/env";

import { parseMirrorConfig } from "@/lib/bff/platform/config-mirror";
import { type CustomerUsage, customerUsage, MirrorStore, purgeUnused, storeBytes } from "@/lib/mirror";

const USAGE = `Usage: npm run mirror -- status [--json]
       npm run mirror -- purge --customer CODE | --unused | --all`;

class UsageError extends Error {}

const iso = (ms: number | null) => (ms === null ? "—" : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;

function statusLines(usage: CustomerUsage[], bytes: number, where: string): string[] {
  const rows = usage.reduce((n, u) => n + u.rows, 0);
  const lines = [`The mirror at ${where}: ${String(usage.length)} customer(s), ${String(rows)} rows, ${mib(bytes)}.`];
  for (const u of usage) {
    // Rows of every customer share the tables and indexes: a customer's size is its share of the rows.
    const size = rows === 0 ? 0 : (bytes * u.rows) / rows;
    lines.push(
      `${u.customerId}: ${String(u.rows)} rows, coverage ${iso(u.coverageFromMs)} – ${iso(u.lastHeadSyncMs)}` +
        `${u.backfillComplete ? " (history complete)" : " (history loading)"}, last sync ${iso(u.lastHeadSyncMs)},` +
        ` last use ${iso(u.lastUsedMs)}, about ${mib(size)}`,
    );
  }
  return lines;
}

async function purge(store: MirrorStore, values: Record<string, unknown>, retentionMs: number): Promise<string[]> {
  const chosen = ["customer", "unused", "all"].filter((k) => values[k] !== undefined && values[k] !== false);
  if (chosen.length !== 1) throw new UsageError("purge needs exactly one of --customer CODE, --unused or --all");
  const known = (await customerUsage(store)).map((u) => u.customerId);
  if (values.unused === true) return purgeUnused(store, Date.now() - retentionMs);
  if (values.all === true) {
    for (const id of known) await store.purge(id);
    return known;
  }
  const code = String(values.customer).trim();
  if (code === "") throw new UsageError("--customer needs a customer code, e.g. --customer PFL");
  const id = known.find((k) => k === code || k === `code:${code}`);
  if (id === undefined)
    throw new UsageError(`no mirror of customer "${code}" in this store (npm run mirror -- status lists them)`);
  await store.purge(id);
  return [id];
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean" },
      customer: { type: "string" },
      unused: { type: "boolean" },
      all: { type: "boolean" },
    },
  });
  const [command, ...extra] = positionals;
  if (command === undefined || extra.length > 0 || !["status", "purge"].includes(command))
    throw new UsageError(command === undefined ? "say what to do" : `unknown command "${positionals.join(" ")}"`);
  if (command === "status" && (values.customer !== undefined || values.unused || values.all))
    throw new UsageError("status takes only --json");
  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
  const parsed = parseMirrorConfig(process.env, process.cwd());
  if (parsed.config === undefined) throw new UsageError(parsed.problems.join("; "));
  const { config } = parsed;
  // Opening would create an empty SQLite file: an operator looking at the wrong folder is told so instead.
  if (config.databaseUrl === undefined && !existsSync(config.path)) {
    console.log(values.json ? JSON.stringify({ bytes: 0, customers: [], purged: [] }) : `No mirror at ${config.path}.`);
    return 0;
  }
  const store = await MirrorStore.open({ databaseUrl: config.databaseUrl, path: config.path });
  try {
    const where = config.databaseUrl === undefined ? config.path : "DATABASE_URL";
    if (command === "status") {
      const usage = await customerUsage(store);
      const bytes = await storeBytes(store);
      console.log(
        values.json ? JSON.stringify({ bytes, customers: usage }) : statusLines(usage, bytes, where).join("\n"),
      );
    } else {
      const purged = await purge(store, values, config.retentionMs);
      console.log(
        values.json
          ? JSON.stringify({ purged })
          : purged.length === 0
            ? "Nothing to delete."
            : `Deleted the mirror of ${purged.join(", ")}.`,
      );
    }
  } finally {
    await store.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    console.error(`mirror: ${error instanceof Error ? error.message : String(error)}${usage ? `\n${USAGE}` : ""}`);
    process.exit(usage ? 2 : 1);
  },
);
