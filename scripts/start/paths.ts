/** Where `npm start` finds the repository and the programs it runs. */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const SANDBOX_ENTRY = path.join(ROOT, "sandbox/cli.ts");
