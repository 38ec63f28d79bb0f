// One lint configuration for every package: type-aware rules through each package's own tsconfig.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import js from "@eslint/js";
import globals from "globals";
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
  },
};

/** The environment is read in each app's env.ts, which parses it with a schema; nothing else reads it. */
const processEnvOnlyInEnvTs = {
  "no-restricted-properties": ["error", { object: "process", property: "env", message: "read the environment in env.ts (parsed with its schema) and import its typed values" }],
  "no-restricted-imports": ["error", { paths: ["process", "node:process"].map((name) => ({ name, importNames: ["env"], message: "read the environment in env.ts" })) }],
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
    plugins: { house },
    rules: { "house/no-relative-import-into-another-package": "error", ...processEnvOnlyInEnvTs },
  },
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
