/** `npm run sandbox -- …`: serve the API (default) or manage the keys and data of a sandbox database. */
import { parseArgs } from "node:util";

import { OPTIONS, USAGE, UsageError } from "./cli/args";
import { runCommand } from "./cli/commands";
import { serve } from "./cli/serve";
import { DEFAULT_DB_PATH, openDatabase } from "./db/open";

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dbPath = values.db ?? process.env.SANDBOX_DB ?? DEFAULT_DB_PATH;
  const [command] = positionals;

  if (command === undefined || command === "serve") return serve(values, dbPath);

  const { db } = openDatabase({ path: dbPath });
  try {
    runCommand(db, values, positionals);
    return 0;
  } finally {
    db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      console.error(`sandbox: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error("sandbox: failed:", error);
    process.exitCode = 1;
  },
);
