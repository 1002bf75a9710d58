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
  const lines: { entry: string; description: string }[] = [];
  for (const line of block.split("\n")) {
    if (line.trim() === "") continue;
    const [entry = "", ...rest] = line.split(/\s{2,}/);
    const previous = lines.at(-1);
    // An indented line continues the description above it.
    if (entry === "" && previous !== undefined) previous.description += ` ${rest.join(" ")}`;
    else lines.push({ entry: entry.trim(), description: rest.join(" ") });
  }
  return lines;
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

describe("ARCHITECTURE's 'Where is…' index", () => {
  it("names only paths that exist", () => {
    const architecture = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
    const section = architecture.split(/^## Where is…$/m)[1]?.split(/^## /m)[0] ?? "";
    const paths = [...section.matchAll(/`([\w@.()[\]*-]+\/[\w@.()[\]*/-]*)`/g)]
      .map((match) => match[1] ?? "")
      .map((entry) => entry.replace(/\/\*\*\/.*$/, "/"));
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((entry) => !existsSync(path.join(root, entry)))).toEqual([]);
  });
});

describe("ARCHITECTURE's lib/bff layout (issue 27: sorted by resource)", () => {
  const architecture = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
  const section = architecture.split(/^## lib\/bff and the routes$/m)[1]?.split(/^## /m)[0] ?? "";

  it("keeps no module at the top of lib/bff: each lives in http/, platform/, files/ or its resource's folder", () => {
    const files = execFileSync("git", ["ls-files", "lib/bff"], { cwd: root, encoding: "utf8" }).split("\n");
    expect(files.filter((file) => /^lib\/bff\/[^/]+$/.test(file))).toEqual([]);
  });

  it("describes every folder of lib/bff", () => {
    const folders = trackedFolders("lib/bff");
    expect(folders.length).toBeGreaterThan(8);
    expect(folders.filter((folder) => !section.includes(folder))).toEqual([]);
  });
});

describe("README and docs/ (issue 26: a README a newcomer reads in two minutes)", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");

  it("keeps the README short, without a status paragraph or a placeholder", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(150);
    expect(readme).not.toMatch(/^> Status:/m);
    expect(readme).not.toMatch(/PLACEHOLDER|TODO/);
  });

  it("links only to files that exist, from the README and every page of docs/", () => {
    const pages = [
      "README.md",
      ...execFileSync("git", ["ls-files", "docs"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(path.join(root, page), "utf8");
      for (const [, target = ""] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(path.join(root, path.dirname(page), target))) broken.push(`${page} → ${target}`);
      }
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it("says that the stations product filter needs the alternative profile (a new user looked for it on the default)", () => {
    const stations = readme.split("\n").findIndex((line) => line.startsWith("- **Stations**"));
    const paragraph = readme
      .split("\n")
      .slice(stations, stations + 4)
      .join(" ");
    expect(paragraph).toMatch(/product filter.*`alternative`.*not the default sandbox/);
  });
});
