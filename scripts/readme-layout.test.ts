// README's "Layout" section is checked against the tree, so it cannot go stale: every path it lists exists, every
// tracked top-level folder and every folder of lib/ has its line, and the components/ line names every feature folder.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function layoutLines(): { entry: string; description: string }[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^## Layout$/m)[1];
  if (section === undefined) throw new Error("README.md has no '## Layout' section");
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [entry = "", ...rest] = line.split(/\s{2,}/);
      return { entry: entry.trim(), description: rest.join(" ") };
    });
}

function trackedFolders(under: string): string[] {
  const files = execFileSync("git", ["ls-files", under], { cwd: root, encoding: "utf8" }).split("\n");
  const depth = under === "." ? 0 : under.split("/").length;
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    if (parts.length > depth + 1 && !parts[depth]?.startsWith("."))
      folders.add(`${parts.slice(0, depth + 1).join("/")}/`);
  }
  return [...folders].sort();
}

describe("README layout", () => {
  const lines = layoutLines();
  const entries = lines.map((line) => line.entry);

  it("lists only paths that exist", () => {
    const missing = entries.filter((entry) => !existsSync(path.join(root, entry)));
    expect(missing).toEqual([]);
  });

  it("has a line for every tracked top-level folder and every folder of lib/", () => {
    const expected = [...trackedFolders("."), ...trackedFolders("lib")].filter((folder) => folder !== "lib/");
    const covered = (folder: string) =>
      entries.includes(folder) || (folder === "lib/" && entries.some((e) => e.startsWith("lib/")));
    expect(expected.filter((folder) => !covered(folder))).toEqual([]);
  });

  it("names every feature folder of components/ on the components/ line", () => {
    const line = lines.find((l) => l.entry === "components/");
    const features = trackedFolders("components").map((folder) => folder.slice("components/".length, -1));
    expect(features.filter((feature) => !(line?.description ?? "").includes(feature))).toEqual([]);
  });
});
