import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

import type { PublicOperation, SessionOperation } from "./operation";

/**
 * Tests only: the operation table — every operation module of this folder, imported, and every route file of
 * app/api — so tests derive their route lists from it (a new route cannot be forgotten) instead of hand-written lists.
 */

const HERE = fileURLToPath(new URL(".", import.meta.url));

// Operations differ in input and reply types; the table only reads their declared route and policies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of operations of every input and reply type
type AnyOperation = SessionOperation<any, any, any> | PublicOperation<any, any>;

const isOperation = (value: unknown): value is AnyOperation =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { route?: unknown }).route === "string" &&
  ((value as { auth?: unknown }).auth === "session" || (value as { auth?: unknown }).auth === "none");

/** The folders of lib/bff that are not resources: the adapter, the services and the file writers (and tests). */
const NOT_RESOURCES = new Set(["http", "platform", "files", "tie-out"]);

/** Every operation exported by a module of a resource folder of lib/bff (tests and test helpers aside). */
export async function operationTable(): Promise<AnyOperation[]> {
  const bff = join(HERE, "..");
  const table: AnyOperation[] = [];
  for (const folder of readdirSync(bff, { withFileTypes: true })) {
    if (!folder.isDirectory() || NOT_RESOURCES.has(folder.name)) continue;
    const dir = join(bff, folder.name);
    const files = readdirSync(dir).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.startsWith("test-"),
    );
    for (const file of files) {
      const exported = (await import(join(dir, file))) as Record<string, unknown>;
      for (const value of Object.values(exported)) if (isOperation(value)) table.push(value);
    }
  }
  return table;
}

/** "GET /api/transactions/[id]" for each method every app/api/**\/route.ts exports. */
export function appRoutes(): string[] {
  const apiDir = join(HERE, "..", "..", "..", "app", "api");
  const routes: string[] = [];
  for (const entry of readdirSync(apiDir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(`${sep}route.ts`) && entry !== "route.ts") continue;
    const path = `/api/${relative(".", join(entry, "..")).split(sep).join("/")}`;
    const source = readFileSync(join(apiDir, entry), "utf8");
    for (const [, method] of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = /g))
      routes.push(`${method ?? ""} ${path}`);
  }
  return routes.sort();
}

/** Paths whose replies are made of the customer's transactions (rows, sums, files, insights). */
export const TRANSACTIONS_DERIVED = [
  /^\/api\/transactions(\/|$)/,
  /^\/api\/(drivers|trucks|cards)(\/|$)/,
  /^\/api\/exceptions(\/|$)/,
  /^\/api\/savings(\/|$)/,
  /^\/api\/reports\/jurisdictions(\/|$)/,
  /^\/api\/locations\/\[id\]\/insights$/,
];

export const pathOf = (route: string) => route.split(" ")[1] ?? "";
