// One lint configuration for every package: type-aware rules through each package's own tsconfig.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import globals from "globals";
import ts from "typescript";
import turbo from "eslint-plugin-turbo";
import tseslint from "typescript-eslint";

/** The folder of the package (nearest package.json) that holds `file`. */
const packageRoots = new Map();
function packageRootOf(file) {
  const dir = dirname(file);
  if (!packageRoots.has(dir)) {
    const parent = dirname(dir);
    packageRoots.set(dir, existsSync(join(dir, "package.json")) || parent === dir ? dir : packageRootOf(dir));
  }
  return packageRoots.get(dir);
}

/** Whether an import or export-from brings types only (`import type`, or every name marked `type`). */
function bringsTypesOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false;
    if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
    const names = clause.namedBindings;
    return !clause.name && names !== undefined && ts.isNamedImports(names) && names.elements.length > 0 && names.elements.every((name) => name.isTypeOnly);
  }
  const names = node.exportClause;
  return node.isTypeOnly || (names !== undefined && ts.isNamedExports(names) && names.elements.length > 0 && names.elements.every((name) => name.isTypeOnly));
}

/** The strongly connected parts of a graph (Tarjan): two files share a part when each reaches the other. */
function stronglyConnectedParts(edges) {
  const part = new Map();
  const order = new Map();
  const low = new Map();
  const stack = [];
  const visit = (file) => {
    order.set(file, order.size);
    low.set(file, order.get(file));
    stack.push(file);
    for (const { to } of edges.get(file) ?? []) {
      if (!order.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (!part.has(to)) {
        low.set(file, Math.min(low.get(file), order.get(to)));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    let member;
    do {
      member = stack.pop();
      part.set(member, file);
    } while (member !== file);
  };
  for (const file of edges.keys()) if (!order.has(file)) visit(file);
  return part;
}

/**
 * The import graph of one TypeScript program (a package's tsconfig), as TypeScript resolves it: its own files only,
 * every import, export-from, import() and import("…") type, each marked type-only or not.
 */
const importGraphs = new WeakMap();
function importGraphOf(program) {
  let graph = importGraphs.get(program);
  if (graph) return graph;
  const options = program.getCompilerOptions();
  const cache = ts.createModuleResolutionCache(program.getCurrentDirectory(), (name) => name, options);
  const edges = new Map();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    const imports = [];
    const add = (literal, typesOnly) => {
      const mode = program.getModeForUsageLocation(file, literal);
      const target = ts.resolveModuleName(literal.text, file.fileName, options, ts.sys, cache, undefined, mode).resolvedModule;
      if (target && !target.isExternalLibraryImport && !target.resolvedFileName.endsWith(".d.ts")) {
        imports.push({ to: target.resolvedFileName, specifier: literal.text, typesOnly });
      }
    };
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier, bringsTypesOnly(node));
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        add(node.argument.literal, true);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        add(node.arguments[0], false);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    edges.set(file.fileName, imports);
  }
  graph = { edges, part: stronglyConnectedParts(edges) };
  importGraphs.set(program, graph);
  return graph;
}

/** The files from `from` back to `to` along imports that stay in their strongly connected part (shortest first). */
function circleBack(graph, from, to) {
  const cameFrom = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) break;
    for (const { to: next } of graph.edges.get(file) ?? []) {
      if (graph.part.get(next) !== graph.part.get(to) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  const path = [];
  for (let file = to; file !== null && file !== undefined; file = cameFrom.get(file)) path.unshift(file);
  return path;
}

/** The house's boundaries between packages: a package is imported by its name, never by a path into its folder. */
const house = {
  rules: {
    "no-relative-import-into-another-package": {
      meta: { type: "problem", docs: { description: "a relative import stays inside its own package" }, schema: [] },
      create(context) {
        const visit = (node) => {
          const source = node.source;
          if (source?.type !== "Literal" || typeof source.value !== "string" || !source.value.startsWith(".")) return;
          const root = packageRootOf(context.filename);
          const target = resolve(dirname(context.filename), source.value);
          const outside = relative(root, target);
          if (outside.startsWith("..")) {
            context.report({ node: source, message: `"${source.value}" reaches out of its package: import the other package by its name` });
          }
        };
        return { ImportDeclaration: visit, ImportExpression: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
      },
    },
    // import-x/no-cycle follows value imports and import() only: this finds the circles that a type-only import
    // closes (the web's configuration once lazy-loaded the development wallet, whose types came from the commands
    // that read the configuration), so that each circle is reported once, by one rule or the other.
    "no-import-circle-through-types": {
      meta: { type: "problem", docs: { description: "a type-only import does not close an import circle" }, schema: [] },
      create(context) {
        const program = context.sourceCode.parserServices?.program;
        if (!program) return {};
        const graph = importGraphOf(program);
        const file = context.physicalFilename;
        const imports = graph.edges.get(file) ?? [];
        const importsValues = new Set(imports.filter((edge) => !edge.typesOnly).map((edge) => edge.to));
        // A file that also imports values from the target is on a value circle there, which import-x reports.
        const closing = imports.filter((edge) => edge.typesOnly && !importsValues.has(edge.to) && graph.part.get(edge.to) === graph.part.get(file));
        if (closing.length === 0) return {};
        const root = packageRootOf(file);
        const visit = (literal) => {
          const edge = literal?.type === "Literal" && closing.find((candidate) => candidate.specifier === literal.value);
          if (!edge) return;
          const circle = [file, ...circleBack(graph, edge.to, file)].map((member) => relative(root, member)).join(" → ");
          context.report({ node: literal, message: `this type import closes an import circle (${circle}): move the shared types to a file that imports none of these` });
        };
        return {
          ImportDeclaration: (node) => visit(node.source),
          ExportNamedDeclaration: (node) => visit(node.source),
          ExportAllDeclaration: (node) => visit(node.source),
          TSImportType: (node) => visit(node.argument?.type === "TSLiteralType" ? node.argument.literal : null),
        };
      },
    },
  },
};

/** The environment is read in each app's env.ts, which parses it with a schema; nothing else reads it. */
const processEnvOnlyInEnvTs = {
  "no-restricted-properties": ["error", { object: "process", property: "env", message: "read the environment in env.ts (parsed with its schema) and import its typed values" }],
  "no-restricted-imports": ["error", { paths: ["process", "node:process"].map((name) => ({ name, importNames: ["env"], message: "read the environment in env.ts" })) }],
};

// Listed rather than globbed: the resolver's glob, run from inside a package, leaves that package's own out.
const packageTsconfigs = ["contracts", ...["apps", "packages"].flatMap((group) => readdirSync(join(import.meta.dirname, group)).map((name) => join(group, name)))]
  .map((folder) => join(import.meta.dirname, folder, "tsconfig.json"))
  .filter((tsconfig) => existsSync(tsconfig));

/**
 * No import circle, in any package, not even through a lazy import() or a type: configuration stays a leaf, and what
 * is chosen at start-up is installed once rather than imported back by what uses it. import-x/no-cycle follows value
 * imports and import() as TypeScript resolves them (each package's own tsconfig); house/no-import-circle-through-types
 * finds the circles a type-only import closes, which import-x skips.
 */
const noImportCircle = {
  files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
  plugins: { "import-x": importX },
  settings: {
    // import-x's TypeScript settings (which files it follows, parsed how); resolver-next replaces their resolver.
    ...importX.flatConfigs.typescript.settings,
    "import-x/resolver-next": [
      createTypeScriptImportResolver({
        project: packageTsconfigs,
        noWarnOnMultipleProjects: true,
      }),
    ],
  },
  rules: {
    // No maxDepth: a circle can be long (the web's was seven files), and a cap saves nothing (3 or 10 cost the same
    // as none: the time, about 9 s of the web's 60 s lint, goes to parsing each file once). node_modules is not
    // followed; another package is followed only into its built entry.
    "import-x/no-cycle": ["error", { ignoreExternal: true }],
    "house/no-import-circle-through-types": "error",
  },
};

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**", "**/dist/**", "**/.turbo/**", "**/coverage/**",
      // Local data of the embedded stack (PGlite, Ponder): never source, sometimes .js files.
      "**/.data/**", "**/.ponder/**",
      "contracts/artifacts/**", "contracts/cache/**", "contracts/coverage-build/**", "contracts/typechain-types/**",
      "packages/clients/src/generated/**", "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    plugins: { house, turbo },
    rules: {
      "house/no-relative-import-into-another-package": "error",
      ...processEnvOnlyInEnvTs,
      // A variable an app reads by name must be one turbo.json lets through to its tasks (strict mode drops the rest)
      // or hashes. Not variables: Vite's own import.meta.env.DEV, MODE, PROD, SSR, BASE_URL; nor ORO_BENCH_FIGURES,
      // which the root `pnpm bench` hands each bench outside turbo (under `turbo run test` no figure is recorded).
      // The rule sees a name only when written out (process.env.NAME, process.env["NAME"], destructuring), not one
      // passed to a reader (process.env[name], a schema parsing process.env).
      "turbo/no-undeclared-env-vars": ["error", { allowList: ["^(DEV|MODE|PROD|SSR|BASE_URL)$", "^ORO_BENCH_FIGURES$"] }],
    },
  },
  noImportCircle,
  {
    // Where process.env is the point: env.ts parses it; tests, the end-to-end suite and benches start processes
    // with an environment of their choosing; scripts and CLIs (scripts/, bin/) are their own entry points with
    // their own flags; tool configs (vitest, playwright, hardhat) are read by the tool, not by an app.
    files: [
      "**/env.ts", "**/test/**", "apps/e2e/**", "**/scripts/**", "**/bin/**", "**/*.config.{ts,mts,js,mjs}",
    ],
    rules: { "no-restricted-properties": "off", "no-restricted-imports": "off" },
  },
  {
    // These set up environments of their own for what they start, or run outside turbo (benches, the stack's CLI).
    files: ["**/test/**", "apps/e2e/**", "**/scripts/**", "**/bin/**", "**/*.config.{ts,mts,js,mjs}"],
    rules: { "turbo/no-undeclared-env-vars": "off" },
  },
  {
    // Functions a reader can hold and files a reader can keep in mind (generated code is ignored above).
    files: ["**/*.{ts,tsx,mts,cts,js,mjs}"],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A package's lint config extends this one by path: the repository's root is no package to import by name.
    files: ["**/eslint.config.mjs"],
    rules: { "house/no-relative-import-into-another-package": "off" },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
