import { readdirSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppProcess, startApp } from "@/test/app-process";

// Issue 24 item 8: a method other than GET and HEAD on a file served as it is answered 500 (Next renders a "/405"
// page the App Router lacks), unlogged. Against the built app (`next start`), each kind of static path — build
// output (a chunk, a stylesheet, a font), the build's manifest folder, public/'s favicon and its basemap folder —
// must answer 405 with `Allow: GET, HEAD` and a sentence, logged as a request line; GET and HEAD still serve the file.
// No upstream is involved: the app starts against the default sandbox address and never calls it.

const SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
/** What wapiti's methods module sent. TRACE is not here: see README "Security" (Next answers it 500 before any code of ours). */
const METHODS = ["OPTIONS", "PUT", "DELETE", "PATCH", "POST"] as const;

/** One built file of each kind under .next/static (names carry content hashes, so they are read from the build). */
function builtFiles(): string[] {
  const root = ".next/static";
  const first = (dir: string, suffix: string): string => {
    const name = readdirSync(join(root, dir)).find((n) => n.endsWith(suffix));
    if (name === undefined) throw new Error(`no ${suffix} file in ${join(root, dir)}`);
    return `/_next/static/${dir}/${name}`;
  };
  const buildIdDir = readdirSync(root).find((n) => !["chunks", "media"].includes(n));
  if (buildIdDir === undefined) throw new Error("no build-id folder in .next/static");
  return [
    first("chunks", ".js"),
    first("chunks", ".css"),
    first("media", ".woff2"),
    first(buildIdDir, "_buildManifest.js"),
  ];
}

describe("other methods on static files (the built app)", () => {
  let app: AppProcess;
  let paths: string[];
  beforeAll(async () => {
    app = await startApp({ SESSION_SECRET });
    paths = [...builtFiles(), "/favicon.svg", "/basemap/us-states-10m.json"];
  }, 300_000);
  afterAll(async () => {
    await (app as AppProcess | undefined)?.stop();
  });

  it("answers 405 with Allow: GET, HEAD and a sentence to each other method, and logs it", async () => {
    for (const path of paths) {
      for (const method of METHODS) {
        const res = await fetch(`${app.origin}${path}`, {
          method,
          body: method === "POST" || method === "PUT" ? "x" : undefined,
        });
        const text = await res.text();
        expect({ path, method, status: res.status, allow: res.headers.get("allow") }).toEqual({
          path,
          method,
          status: 405,
          allow: "GET, HEAD",
        });
        expect(text).toBe(`This file can only be read (GET, HEAD); ${method} is not allowed.\n`);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      }
    }
    // One request log line per refusal (the app's JSON log), with the path and no 5xx anywhere.
    const lines = app
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map(
        (line) => JSON.parse(line) as { msg?: string; route?: string; method?: string; path?: string; status?: number },
      );
    for (const path of paths)
      for (const method of METHODS)
        expect(
          lines.some((l) => l.msg === "request" && l.path === path && l.method === method && l.status === 405),
          `${method} ${path}`,
        ).toBe(true);
    expect(app.output()).not.toMatch(/"status":5\d\d/);
  }, 120_000);

  it("still serves each file to GET and HEAD, with its long cache for build output", async () => {
    for (const path of paths) {
      for (const method of ["GET", "HEAD"]) {
        const res = await fetch(`${app.origin}${path}`, { method });
        await res.arrayBuffer();
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 200 });
        if (path.startsWith("/_next/static/chunks/"))
          expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
    }
  }, 120_000);
});
