// ESLint rule "boundaries/imports": the architecture's import rules (ARCHITECTURE.md, "Import rules") checked on the
// module an import resolves to, so `@/lib/bff/x`, `../bff/x` and `../../lib/bff/x` are one and the same target.
//
// Why our own ~100 lines rather than eslint-plugin-boundaries or import-x/no-restricted-paths: both resolve through
// eslint-import-resolver-typescript, whose resolver ships native binaries per platform (the same lockfile trouble that
// ruled out Biome), while this project only needs two spellings resolved: the `@/` alias and relative paths.
import { statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The import's target as a repo-relative path ("lib/bff/x"), or the bare package specifier ("next/server"). */
function resolveTarget(specifier, filename) {
  if (specifier.startsWith("@/")) return path.posix.normalize(specifier.slice(2));
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    const absolute = path.resolve(path.dirname(filename), specifier);
    return path.relative(ROOT, absolute).split(path.sep).join("/");
  }
  return specifier;
}

/** The feature folder of a repo-relative path under `root` ("components/stations/x.tsx" → "stations"), or null. */
function featureOf(relative, root) {
  const prefix = `${root}/`;
  if (!relative.startsWith(prefix)) return null;
  const rest = relative.slice(prefix.length);
  const slash = rest.indexOf("/");
  return slash === -1 ? null : rest.slice(0, slash);
}

function isFolder(relative) {
  try {
    return statSync(path.join(ROOT, relative)).isDirectory();
  } catch {
    return false;
  }
}

function isClientModule(sourceCode) {
  const first = sourceCode.ast.body[0];
  return first?.type === "ExpressionStatement" && first.directive === "use client";
}

function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

const FEATURES_SCHEMA = {
  type: "object",
  properties: {
    root: { type: "string" },
    shared: { type: "array", items: { type: "string" } },
    entries: { type: "boolean" },
    hint: { type: "string" },
  },
  required: ["root", "shared"],
  additionalProperties: false,
};

/** The import of `target` from feature `own` under `features.root` that the rule refuses, as a message; else null. */
function featureProblem(features, own, target) {
  const { root, shared, entries, hint } = features;
  // An import of a folder itself ("lib/bff/transactions", its index) belongs to that folder; a module at the root
  // ("components/stations/view-state") belongs to no feature.
  const feature = featureOf(target, root) ?? (isFolder(target) ? featureOf(`${target}/`, root) : null);
  if (own === null || feature === null || feature === own || shared.includes(feature)) return null;
  const isEntry =
    target === `${root}/${feature}` || /^\/index(\.tsx?)?$/.test(target.slice(`${root}/${feature}`.length));
  if (entries === true && isEntry) return null;
  return (
    `${root}/${own} may not import ${root}/${feature} (imports ${target}): ` +
    (hint ?? `move what both need to ${root}/${shared[0]}.`)
  );
}

const importsRule = {
  meta: {
    type: "problem",
    docs: { description: "Keeps each layer and feature folder to the imports the architecture allows." },
    schema: [
      {
        type: "object",
        properties: {
          // Forbidden targets: `pattern` is a regular expression matched against the resolved target.
          zones: {
            type: "array",
            items: {
              type: "object",
              properties: {
                pattern: { type: "string" },
                message: { type: "string" },
                allowTypeImports: { type: "boolean" },
              },
              required: ["pattern", "message"],
              additionalProperties: false,
            },
          },
          // Check only modules that start with "use client" (browser code that lives under app/).
          onlyClientModules: { type: "boolean" },
          // Feature folders under `root` may not import each other; `shared` folders may be imported by all. With
          // `entries`, a feature may import another's entry (`root/feature` or its index), never its other modules;
          // `hint` ends the message (what to do instead). An array checks several roots (components/, the feature
          // folders inside components/stations, lib/bff's resources).
          features: { oneOf: [FEATURES_SCHEMA, { type: "array", items: FEATURES_SCHEMA }] },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0] ?? {};
    if (options.onlyClientModules === true && !isClientModule(context.sourceCode)) return {};
    const zones = (options.zones ?? []).map((zone) => ({ ...zone, regex: new RegExp(zone.pattern) }));
    const self = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const featureRoots = options.features === undefined ? [] : [options.features].flat();

    function check(node, source) {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const target = resolveTarget(source.value, context.filename);
      for (const zone of zones) {
        if (!zone.regex.test(target)) continue;
        if (zone.allowTypeImports === true && isTypeOnly(node)) continue;
        context.report({ node: source, message: `${zone.message} (imports ${target})` });
        return;
      }
      for (const features of featureRoots) {
        const message = featureProblem(features, featureOf(self, features.root), target);
        if (message === null) continue;
        context.report({ node: source, message });
        return;
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

/**
 * A folder reached only through its entry: from outside `folder`, an import that resolves to `folder/<module>` is
 * refused (the folder itself and `folder/index` are the entry); modules and tests inside the folder import anything.
 * On the resolved target, so `@/lib/mirror/store`, `../mirror/store` from lib/insights and `../../lib/mirror/store`
 * are caught, while `../mirror/access` from lib/bff/operations (lib/bff/mirror, another folder) is not.
 */
const entryRule = {
  meta: {
    type: "problem",
    docs: { description: "Keeps a folder's modules behind its index: outsiders import the entry only." },
    schema: [
      {
        type: "object",
        properties: {
          folders: {
            type: "array",
            items: {
              type: "object",
              properties: { folder: { type: "string" }, message: { type: "string" } },
              required: ["folder", "message"],
              additionalProperties: false,
            },
          },
        },
        required: ["folders"],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const folders = context.options[0]?.folders ?? [];
    const self = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const outside = folders.filter(({ folder }) => !self.startsWith(`${folder}/`));
    if (outside.length === 0) return {};

    function check(source) {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const target = resolveTarget(source.value, context.filename).replace(/\.(ts|tsx|js|mjs)$/, "");
      for (const { folder, message } of outside) {
        if (!target.startsWith(`${folder}/`) || target === `${folder}/index`) continue;
        context.report({ node: source, message: `${message} (imports ${target})` });
        return;
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { meta: { name: "boundaries" }, rules: { imports: importsRule, entry: entryRule } };
